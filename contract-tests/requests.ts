/**
 * Builds requests from the spec: valid ones from the examples (body examples, parameter examples,
 * schema-derived values where there is none), with the key sent the way the operation takes it;
 * serialise.ts writes them for the wire.
 */
import {
  carriesKey,
  deref,
  drawnParameterSchema,
  forEachLocation,
  propertiesOf,
  unsentQueryNames,
  withoutClashes,
  type JsonSchema,
  type Obj,
  type Operation,
  type Parameter,
  type SchemaRoot,
  type ServiceModel,
} from 'dataapi/model';
import { mustSend } from './fetch-headers.ts';
import { headerCarries } from './header-values.ts';
import { emptySegment } from './path-values.ts';
import type { OutgoingRequest } from './http.ts';
import { serializeArrayParam, serializeObjectParam } from 'openapi-fetch';
import { draw, hashText } from 'dataapi/runtime/sampler';
import {
  chooseRequirement,
  describeErrors,
  encodeForm,
  exampleFault,
  invalidExample,
  isXmlMedia,
  placeCredential,
  toXml,
  validatorFor,
} from 'dataapi/runtime/shared';
import { pointerOf, type DescriptionWarning } from './warnings.ts';
import { givenFor, type GivenRequest } from './given-data.ts';
import { xmlFault } from 'dataapi/runtime/xml';

/** A request before serialisation: values by location (serialise.ts writes cookies as one Cookie header). */
export interface RequestSpec {
  name: string;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  cookie: Record<string, unknown>;
  /** JSON value, or the multipart fields (file fields hold example strings or arrays of them). */
  body?: unknown;
  /** Send no body at all (a negative case). */
  omitBody?: boolean;
  /**
   * A schema of this request admits no value the sampler can find (e.g. `oneOf` options that
   * overlap): what was sent may be invalid, and a refusal is the description's fault.
   */
  unsatisfied?: { pointer: string; why: string };
  /**
   * A value of the request was generated from a schema, not taken from the description's
   * examples: a declared refusal of it may be a rule the schema does not state (not tested).
   */
  sampled?: boolean;
  /**
   * The body is the user's test data (--test-data), sent as given: it may name the resource on
   * purpose, so every create with it names the same one (test-data.ts holds that one for the run).
   */
  given?: boolean;
}

export type KeyMode = 'key' | 'none' | 'wrong';
export const WRONG_KEY = 'dataapi-contract-wrong-key-0000';

/** One valid request per valid body example (or one, when the operation has none). */
export function validRequests(model: ServiceModel, op: Operation): RequestSpec[] {
  return build(model, op).specs;
}

/**
 * The request body examples that do not match their schemas (requests send samples instead);
 * the response examples' are responseExampleWarnings (example-warnings.ts).
 */
export function requestWarnings(model: ServiceModel, op: Operation): DescriptionWarning[] {
  return build(model, op).warnings;
}

const built = new WeakMap<Operation, { specs: RequestSpec[]; warnings: DescriptionWarning[] }>();

function build(
  model: ServiceModel,
  op: Operation,
): { specs: RequestSpec[]; warnings: DescriptionWarning[] } {
  const known = built.get(op);
  if (known) return { specs: structuredClone(known.specs), warnings: known.warnings };
  const warnings: DescriptionWarning[] = [];
  const base: RequestSpec = emptyRequest('example');
  const clashes = unsentQueryNames(model, op);
  type Drawn = { value: unknown; valid: boolean; why: string };
  const put = (p: Parameter, drawn: Drawn | undefined) => {
    if (drawn === undefined) return;
    base[p.in][p.name] = drawn.value;
    // A parameter no value satisfies (`type: integer` with an enum of strings): what it sends
    // may be refused, and that refusal is the description's (trakt.tv's ratings).
    if (!drawn.valid && !base.unsatisfied)
      base.unsatisfied = {
        pointer: pointerOf(op.pointer, 'parameters'),
        why: `${p.in} parameter ${p.name}: ${drawn.why}`,
      };
  };
  const take = (p: Parameter, sendable?: (v: unknown) => boolean) => {
    if (carriesCredential(op, p)) return undefined;
    const found = parameterValue(model, op, p, warnings, sendable);
    if (found?.sampled) base.sampled = true;
    return found;
  };
  forEachLocation(op.parameters, {
    // An empty path value is no segment at all (`/company/x/` for an enum with ""): brex.io.
    path: (p) =>
      put(
        p,
        take(p, (v) => !emptySegment(v)),
      ),
    // Properties of a query object another parameter also writes are not sent.
    query: (p) => {
      const found = take(p);
      put(p, found && sendableObject(model, p, found, clashes));
    },
    // A value fetch would trim or refuse is another request: one it sends as written instead.
    header: (p) => put(p, take(p, headerCarries)),
    cookie: (p) => put(p, take(p)),
  });
  const body = op.body;
  let specs: RequestSpec[] = [base];
  if (body) {
    // An empty text example of a required body goes out as no body at all (go2rtc: `example:
    // ""` for application/pairing+tlv8), an XML text example that is not XML (openEHR: tags that
    // do not close) and one its schema refuses are no valid request: a sample is sent instead.
    const reading = {
      requestBody: { kind: body.kind, required: body.required },
      ...(isXmlMedia(body.mediaType) ? { media: { type: body.mediaType, fault: xmlFault } } : {}),
    };
    const examples = body.examples.filter((ex) => {
      const fault = exampleFault(model, body.schema, ex.value, reading);
      if (!fault) return true;
      warnings.push(
        invalidExample({
          operation: op.id,
          pointer: pointerOf(
            op.pointer,
            'requestBody',
            'content',
            body.mediaType,
            'examples',
            ex.name,
          ),
          subject: `request body example ${JSON.stringify(ex.name)}`,
          fault,
          value: ex.value,
          instead: 'a schema sample is sent instead',
          wording: 'run',
        }),
      );
      return false;
    });
    const sample = () => {
      const d = drawBody(model, body);
      const at = pointerOf(op.pointer, 'requestBody', 'content', body.mediaType, 'schema');
      return {
        ...base,
        name: 'schema sample',
        body: d.value,
        sampled: true,
        ...(d.valid ? {} : { unsatisfied: { pointer: at, why: d.errors[0] ?? 'invalid' } }),
      };
    };
    specs =
      examples.length === 0
        ? [sample()]
        : examples.map((ex) => ({
            ...base,
            name: `example ${JSON.stringify(ex.name)}`,
            body: structuredClone(ex.value),
          }));
  }
  const mine = givenFor(model, op);
  if (mine) specs = withGiven(specs, base, mine);
  built.set(op, { specs, warnings });
  return { specs: structuredClone(specs), warnings };
}

/**
 * The user's test data (--test-data) over the built requests: its parameters replace theirs, and
 * its body replaces every example and sample (one request, named "test data").
 */
function withGiven(specs: RequestSpec[], base: RequestSpec, mine: GivenRequest): RequestSpec[] {
  const over = (s: RequestSpec): RequestSpec => ({
    ...s,
    path: { ...s.path, ...mine.path },
    query: { ...s.query, ...mine.query },
    header: { ...s.header, ...mine.header },
    cookie: { ...s.cookie, ...mine.cookie },
  });
  if (mine.body === undefined) return specs.map(over);
  return [over({ ...base, name: 'test data', body: structuredClone(mine.body), given: true })];
}

/**
 * A request as a report or replay file keeps it: no cookie slot when it is empty, so a file of a
 * description without cookie parameters reads as it did before the slot (issue 47).
 */
/**
 * A body sample as the suite draws it. A form or multipart body is an object of fields: where its
 * schema says nothing of that (codat.io's `multipart/form-data` with `schema: {}`) an object is
 * drawn, as a text drawn would write no field at all. A form writes no pair for an empty list or
 * object: its sample holds none (sampler `filled`).
 */
export function drawBody(
  model: ServiceModel,
  body: NonNullable<Operation['body']>,
  seed?: number,
): ReturnType<typeof draw> {
  const fields = body.kind === 'form' || body.kind === 'multipart';
  const schema = fields && typeless(model, body.schema) ? { type: 'object' } : body.schema;
  return draw(model, schema, {
    direction: 'request',
    filled: body.kind === 'form',
    ...(seed === undefined ? {} : { seed }),
  });
}

/** A schema that names no type, properties nor options (`{}`, a description only). */
function typeless(model: ServiceModel, schema: JsonSchema | undefined): boolean {
  const s = deref(model, schema);
  if (typeof s !== 'object' || s === null) return true;
  return !['type', 'properties', 'allOf', 'anyOf', 'oneOf', 'enum', 'const', '$ref'].some((k) =>
    Object.hasOwn(s, k),
  );
}

export type SavedRequest = Omit<RequestSpec, 'cookie'> & { cookie?: Record<string, unknown> };

export function savedRequest(spec: RequestSpec): SavedRequest {
  // `given` is the run's own note (where the body came from), not part of the request.
  const { given: _given, ...kept } = spec;
  const { cookie, ...rest } = kept;
  return Object.keys(cookie).length > 0 ? kept : rest;
}

/**
 * A saved request to send again. A file written before the cookie slot has none: its cookie
 * parameters are among the headers (where no header parameter has the name), moved back here.
 */
export function requestOfSaved(op: Operation, saved: SavedRequest): RequestSpec {
  if (saved.cookie !== undefined) return { ...saved, cookie: saved.cookie };
  const header = { ...saved.header };
  const cookie: Record<string, unknown> = {};
  for (const p of op.parameters.cookie) {
    const headerToo = op.parameters.header.some((h) => h.name === p.name);
    if (headerToo || !Object.hasOwn(header, p.name)) continue;
    cookie[p.name] = header[p.name];
    delete header[p.name];
  }
  return { ...saved, header, cookie };
}

/** A request with no values yet. */
export function emptyRequest(name: string): RequestSpec {
  return { name, path: {}, query: {}, header: {}, cookie: {} };
}

/**
 * Whether a parameter is where the operation's credential goes (model `carriesKey`). The
 * credential fills it: a value of the parameter's own would come first on the wire
 * (`?api-key=&api-key=***`) and the server read the key as missing (corpus
 * nytimes.com/books_api, 401 on fuzz valid requests).
 */
export function carriesCredential(op: Operation, p: Parameter): boolean {
  return carriesKey(op.auth, p);
}

/** The value a valid request sends for a parameter (and whether it is valid); undefined: leave it out. */
function parameterValue(
  model: ServiceModel,
  op: Operation,
  p: Parameter,
  warnings: DescriptionWarning[],
  sendable: (v: unknown) => boolean = () => true,
): { value: unknown; valid: boolean; why: string; sampled?: boolean } | undefined {
  const s = p.schema as Obj;
  const sampled = (v: { value: unknown; valid: boolean; why: string }) => ({ ...v, sampled: true });
  const given =
    p.example !== undefined
      ? p.example
      : typeof s === 'object' && Array.isArray(s['examples']) && s['examples'].length > 0
        ? s['examples'][0]
        : undefined;
  if (given !== undefined) {
    const fault = exampleFault(model, p.schema, given);
    if (!fault && sendable(given)) return { value: given, valid: true, why: '' };
    if (!sendable(given)) return sampled(requestSample(model, p.schema, sendable));
    warnings.push(
      invalidExample({
        operation: op.id,
        pointer: pointerOf(op.pointer, 'parameters'),
        subject: `example of ${p.in} parameter ${p.name} (${JSON.stringify(given)})`,
        fault: fault!,
        value: given,
        instead: 'a schema sample is sent instead',
        wording: 'run',
      }),
    );
    return sampled(requestSample(model, p.schema));
  }
  // Optional parameters without an example stay out: the spec gives no value to trust; but a
  // header that fetch would fill with a value its schema refuses is sent with a valid one.
  return p.required || mustSend(model, p)
    ? sampled(requestSample(model, drawnParameterSchema(model, p), sendable))
    : undefined;
}

/**
 * An exploded query object's value without the properties another parameter also writes (they
 * are not sent: model/query-objects.ts); invalid when one of them is required.
 */
function sendableObject(
  model: ServiceModel,
  p: Parameter,
  drawn: { value: unknown; valid: boolean; why: string },
  clashes: Map<string, Map<string, string[]>>,
): { value: unknown; valid: boolean; why: string } {
  const value = withoutClashes(drawn.value, clashes.get(p.name));
  if (value === drawn.value || !drawn.valid) return { ...drawn, value };
  // A free-form object names the keys it lost (every other parameter's name is no use to a reader).
  const lost = Object.keys(drawn.value as object).filter((k) => !Object.hasOwn(value as object, k));
  const free = propertiesOf(model, p.schema, { alternatives: true }).size === 0;
  const names = (free ? lost : [...clashes.get(p.name)!.keys()]).join(', ');
  // A required object left with no property writes no pair: the server cannot see it (ec2's
  // InputStorageLocation, whose Bucket and Key LogsStorageLocation writes too).
  if (p.required && Object.keys(value as object).length === 0)
    return {
      value,
      valid: false,
      why: `required, but its properties ${names} cannot be sent (their names are other parameters' too)`,
    };
  const check = validatorFor(model).compile(p.schema);
  if (check(value)) return { ...drawn, value };
  const why = `its properties ${names} cannot be sent (their names are other parameters' too): ${describeErrors(check.errors, value, 1).join('; ')}`;
  return { value, valid: false, why };
}

/**
 * A value valid for a request where one is found: the sampler's draw (readOnly properties left
 * out), one that can be sent where possible (further seeds are tried).
 */
function requestSample(
  model: ServiceModel,
  schema: JsonSchema,
  sendable: (v: unknown) => boolean = () => true,
): { value: unknown; valid: boolean; why: string } {
  let d = draw(model, schema, { direction: 'request' });
  for (let seed = 2; seed <= 16 && d.valid && !sendable(d.value); seed++)
    d = draw(model, schema, { direction: 'request', seed, preferExamples: false });
  return { value: d.value, valid: d.valid, why: d.errors[0] ?? 'invalid' };
}

/** Names of the parameters and body fields a request carries (for coverage). */
export function carried(spec: RequestSpec): string[] {
  const out = [
    ...Object.keys(spec.path).map((n) => `path.${n}`),
    ...Object.keys(spec.query).map((n) => `query.${n}`),
    ...Object.keys(spec.header).map((n) => `header.${n}`),
    ...Object.keys(spec.cookie).map((n) => `cookie.${n}`),
  ];
  if (
    !spec.omitBody &&
    typeof spec.body === 'object' &&
    spec.body !== null &&
    !Array.isArray(spec.body)
  )
    out.push(...Object.keys(spec.body).map((n) => `body.${n}`));
  return out.sort();
}
