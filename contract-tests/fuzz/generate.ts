/**
 * Valid requests of an operation as a fast-check Arbitrary: every parameter and the body drawn
 * from the one sampler (`arbitraryOf`, wide range: patterns, formats, enums, bounds and their
 * boundary values, lengths up to the declared maximum, optional fields present and absent, arrays
 * of varied length, Unicode). fast-check shrinks them: optional fields go, values get small.
 *
 * A drawn value is not always valid (a pattern fast-check cannot express, `not`, contradictory
 * parts) nor sendable (text a header cannot carry): `check` says which, and the run discards it.
 */
import fc from 'fast-check';
import {
  sentBody,
  allParameters,
  unsentQueryNames,
  withoutClashes,
  type JsonSchema,
  type Operation,
  type Parameter,
  type ParameterLocation,
  type ServiceModel,
} from 'dataapi/model';
import { describeErrors, validatorFor } from 'dataapi/runtime/shared';
import {
  arbitraryOf,
  effective,
  objectShape,
  readOnlyNames,
  typesOf,
  type ArbitraryOptions,
} from 'dataapi/runtime/sampler';
import { mustSend } from '../fetch-headers.ts';
import { segmentTrouble } from '../path-values.ts';
import { carriesCredential, emptyRequest, type RequestSpec } from '../requests.ts';

/** Longest generated string per location: URLs and headers have limits of their own. */
const MAX_LENGTH = { path: 64, query: 256, header: 256, cookie: 256, body: 1000 } as const;

function options(where: keyof typeof MAX_LENGTH): ArbitraryOptions {
  return {
    direction: 'request',
    preferExamples: false,
    optional: 'random',
    range: 'wide',
    maxStringLength: MAX_LENGTH[where],
    ...(where === 'header' || where === 'cookie' ? { ascii: true } : {}),
  };
}

/** A parameter's values: never null on the wire (a query string cannot say null). */
function parameterArbitrary(model: ServiceModel, p: Parameter): fc.Arbitrary<unknown> {
  const arb = arbitraryOf(model, p.schema, options(p.in));
  const types = typesOf(effective(model, p.schema).s);
  return types.length === 1 && types[0] === 'null' ? arb : arb.filter((v) => v !== null);
}

export function validArbitrary(model: ServiceModel, op: Operation): fc.Arbitrary<RequestSpec> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of allParameters(op.parameters)) {
    if (carriesCredential(op, p)) continue; // the key goes there
    const arb = parameterArbitrary(model, p);
    // A header fetch would fill with a value its schema refuses is never left out.
    const present = p.required || mustSend(model, p);
    parts[`${p.in} ${p.name}`] = present ? arb : fc.option(arb, { nil: undefined });
  }
  const body = sentBody(op);
  if (body) {
    const arb = arbitraryOf(model, body.schema, options('body'));
    parts['body'] = body.required ? arb : fc.option(arb, { nil: undefined });
  }
  const optional = new Set(
    allParameters(op.parameters)
      .filter((p) => !p.required)
      .map((p) => `${p.in} ${p.name}`),
  );
  // Properties another query parameter also writes are not sent (model/query-objects.ts).
  const clashes = unsentQueryNames(model, op);
  return fc.record(parts).map((values) => {
    const spec = emptyRequest('fuzz');
    for (const [key, value] of Object.entries(values)) {
      // An empty list as text is no value: an optional parameter holding one is left out.
      if (value === undefined || (optional.has(key) && vanishes(value))) continue;
      if (key === 'body') spec.body = value;
      else {
        const [loc, ...rest] = key.split(' ') as [ParameterLocation, ...string[]];
        const name = rest.join(' ');
        spec[loc][name] = loc === 'query' ? withoutClashes(value, clashes.get(name)) : value;
      }
    }
    if (body && values['body'] === undefined) spec.omitBody = true;
    return spec;
  });
}

const validators = new WeakMap<object, (v: unknown) => string[]>();

/** Why a value is not valid for a schema (empty: valid); readOnly fields a request leaves out aside. */
export function schemaErrors(model: ServiceModel, schema: JsonSchema, value: unknown): string[] {
  const key = typeof schema === 'object' ? schema : { boolean: schema };
  let check = validators.get(key);
  if (!check) {
    const validate = validatorFor(model).compile(schema);
    const readOnly = readOnlyNames(model, schema);
    check = (v) => {
      if (validate(v)) return [];
      const real = (validate.errors ?? []).filter(
        (e) =>
          !(
            e.keyword === 'required' &&
            readOnly.has(String((e.params as { missingProperty?: string }).missingProperty))
          ),
      );
      return real.length === 0 ? [] : describeErrors(real, v, 2);
    };
    validators.set(key, check);
  }
  return check(value);
}

/** Why a generated valid request cannot be used (undefined: it can). */
export function unusable(
  model: ServiceModel,
  op: Operation,
  spec: RequestSpec,
): string | undefined {
  for (const p of allParameters(op.parameters)) {
    const v = spec[p.in][p.name];
    if (v === undefined) continue;
    const why =
      unsendable(p.in, v) ??
      (p.required ? vanishes(v) : undefined) ??
      schemaErrors(model, p.schema, v)[0];
    if (why) return `${p.in} ${p.name}: ${why}`;
  }
  const body = sentBody(op);
  if (body && !spec.omitBody && (body.kind === 'form' || body.kind === 'multipart')) {
    const fields = (spec.body ?? {}) as Record<string, unknown>;
    for (const name of objectShape(model, body.schema).required) {
      const why = fields[name] === undefined ? undefined : vanishes(fields[name]);
      if (why) return `body field ${name}: ${why}`;
    }
  }
  // A required body that is not JSON and sends no byte (`''` as text, no form field) is no body.
  if (body?.required && !spec.omitBody && body.kind !== 'json' && body.kind !== 'multipart') {
    const empty =
      spec.body === undefined ||
      spec.body === null ||
      spec.body === '' ||
      (body.kind === 'form' && vanishes(spec.body) !== undefined);
    if (empty) return 'body: empty, which reads as no body (the body is required)';
  }
  for (const group of op.requireAnyOf)
    if (!group.some((n) => spec.query[n] !== undefined)) return `none of ${group.join(', ')}`;
  const sent = sentBody(op);
  if (sent && !spec.omitBody) {
    const why = schemaErrors(model, sent.schema, spec.body)[0];
    if (why) return `body: ${why}`;
  }
  return undefined;
}

/** An empty list or object as text on the wire is no value at all: a required field would be missing. */
function vanishes(value: unknown): string | undefined {
  const empty = Array.isArray(value)
    ? value.length === 0
    : typeof value === 'object' && value !== null && Object.keys(value).length === 0;
  return empty ? 'an empty list or object, which reads as absent on the wire' : undefined;
}

/** Why a value cannot travel where it goes as itself (undefined: it can). */
export function unsendable(where: string, value: unknown): string | undefined {
  if (where === 'path') return segmentTrouble(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if ((where === 'header' || where === 'cookie') && !/^(?:[!-~](?:[ -~]*[!-~])?)?$/.test(text))
    return 'not printable ASCII without spaces at its ends (a header value)';
  return undefined;
}
