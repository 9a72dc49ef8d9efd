/**
 * The fields a request of an operation carries, each with its schema and where it travels: the
 * parameters, and the top-level properties of a JSON, form or multipart body. Generation,
 * mutation and fuzz coverage all walk this one list.
 */
import {
  allParameters,
  atLocation,
  keyTransport,
  sentBody,
  type JsonSchema,
  type Operation,
  type ParameterLocation,
  type ServiceModel,
} from 'dataapi/model';
import { effective, objectShape } from 'dataapi/runtime/sampler';
import { carriesCredential, type RequestSpec } from '../requests.ts';

export type Location = ParameterLocation | 'body';

export interface Field {
  loc: Location;
  name: string;
  /** `query.lang`, `body.score`: how reports name it. */
  key: string;
  schema: JsonSchema;
  required: boolean;
  /** Text on the wire (parameters, form and multipart fields): no JSON types survive. */
  onWire: boolean;
  /** A multipart file field, the key's own body field or a readOnly one: never generated or mutated. */
  untouched?: boolean;
}

export function fieldsOf(model: ServiceModel, op: Operation): Field[] {
  const out: Field[] = allParameters(op.parameters).map((p) => {
    const readable = () => effective(model, p.schema).s['readOnly'] !== true;
    return {
      loc: p.in,
      name: p.name,
      key: `${p.in}.${p.name}`,
      schema: p.schema,
      // (path parameters always are); a readOnly schema waives it, as for a body field
      required:
        p.required &&
        atLocation(p, {
          path: () => true,
          query: readable,
          header: readable,
          cookie: readable,
        }),
      onWire: true,
      // Where the key goes: the credential fills it, never a generated value.
      ...(carriesCredential(op, p) ? { untouched: true } : {}),
    };
  });
  const body = sentBody(op);
  if (body && (body.kind === 'json' || body.kind === 'multipart' || body.kind === 'form')) {
    const { properties, required } = objectShape(model, body.schema);
    const keyField = keyTransport(op.auth, 'body')?.name;
    for (const [name, schema] of Object.entries(properties)) {
      // readOnly is the server's to write: a request need not send it, even where required
      // (corpus ijenko.net: "body field class missing" was sent as an invalid request).
      const readOnly = effective(model, schema).s['readOnly'] === true;
      out.push({
        loc: 'body',
        name,
        key: `body.${name}`,
        schema,
        required: required.includes(name) && !readOnly,
        onWire: body.kind !== 'json',
        ...(name === keyField || body.fileFields.includes(name) || readOnly
          ? { untouched: true }
          : {}),
      });
    }
  }
  return out;
}

/** A field's value in a request (undefined: absent). */
export function valueOf(spec: RequestSpec, f: Field): unknown {
  if (f.loc !== 'body') return spec[f.loc][f.name];
  const b = spec.body;
  return typeof b === 'object' && b !== null && !Array.isArray(b)
    ? (b as Record<string, unknown>)[f.name]
    : undefined;
}

/** The request with one field set (undefined: removed). */
export function withValue(spec: RequestSpec, f: Field, value: unknown): RequestSpec {
  if (f.loc === 'body') {
    const b = spec.body;
    const body = {
      ...(typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as object) : {}),
    } as Record<string, unknown>;
    if (value === undefined) delete body[f.name];
    else body[f.name] = value;
    // A body a field is set in (or left out of) is sent, even where the valid request had none.
    const { omitBody: _omitted, ...rest } = spec;
    void _omitted;
    return { ...rest, body };
  }
  const values = { ...spec[f.loc] };
  if (value === undefined) delete values[f.name];
  else values[f.name] = value;
  return { ...spec, [f.loc]: values };
}
