/**
 * Builds requests from the spec: valid ones from the examples (body examples, parameter examples,
 * schema-derived values where there is none), with the key sent the way the operation takes it,
 * and serialises them for the wire (path, query, headers, JSON or multipart).
 */
import {
  allParameters,
  queryNameClashes,
  withoutClashes,
  type JsonSchema,
  type Obj,
  type Operation,
  type Parameter,
  type SchemaRoot,
  type ServiceModel,
} from 'dataapi/model';
import { mustSend } from './fetch-headers.ts';
import { emptySegment } from './path-values.ts';
import type { OutgoingRequest } from './http.ts';
import { serializeArrayParam, serializeObjectParam } from 'openapi-fetch';
import { draw, hashText } from 'dataapi/runtime/sampler';
import {
  chooseRequirement,
  createSchemaValidator,
  describeErrors,
  directionalErrors,
  encodeForm,
  isXmlMedia,
  placeCredential,
  toXml,
  validatorFor,
  type ErrorObject,
  type SchemaValidator,
} from 'dataapi/runtime/shared';
import { pointerOf, type DescriptionWarning } from './warnings.ts';

/** A request before serialisation: values by location. */
export interface RequestSpec {
  name: string;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  /** JSON value, or the multipart fields (file fields hold example strings or arrays of them). */
  body?: unknown;
  /** Send no body at all (a negative case). */
  omitBody?: boolean;
  /**
   * A schema of this request admits no value the sampler can find (e.g. `oneOf` options that
   * overlap): what was sent may be invalid, and a refusal is the description's fault.
   */
  unsatisfied?: { pointer: string; why: string };
}

export type KeyMode = 'key' | 'none' | 'wrong';
export const WRONG_KEY = 'dataapi-contract-wrong-key-0000';

/** One valid request per valid body example (or one, when the operation has none). */
export function validRequests(model: ServiceModel, op: Operation): RequestSpec[] {
  return build(model, op).specs;
}

/**
 * The request body examples that do not match their schemas (requests send samples instead);
 * the response examples' are responseExampleWarnings.
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
  const base: RequestSpec = { name: 'example', path: {}, query: {}, header: {} };
  const clashes = queryNameClashes(model, op);
  for (const p of allParameters(op.parameters)) {
    if (carriesCredential(op, p)) continue;
    const found = parameterValue(model, op, p, warnings);
    if (found === undefined) continue;
    const drawn = p.in === 'query' ? sendableObject(model, p, found, clashes) : found;
    base[p.in === 'cookie' ? 'header' : p.in][p.name] = drawn.value;
    // A parameter no value satisfies (`type: integer` with an enum of strings): what it sends
    // may be refused, and that refusal is the description's (trakt.tv's ratings).
    if (!drawn.valid && !base.unsatisfied)
      base.unsatisfied = {
        pointer: pointerOf(op.pointer, 'parameters'),
        why: `${p.in} parameter ${p.name}: ${drawn.why}`,
      };
  }
  const body = op.body;
  let specs: RequestSpec[] = [base];
  if (body) {
    const check = exampleCheck(model, body.kind, body.schema);
    const examples = body.examples.filter((ex) => {
      if (check(ex.value)) return true;
      warnings.push({
        code: 'example-invalid',
        operation: op.id,
        pointer: pointerOf(
          op.pointer,
          'requestBody',
          'content',
          body.mediaType,
          'examples',
          ex.name,
        ),
        message: `request body example ${JSON.stringify(ex.name)} does not match its schema (a schema sample is sent instead): ${describeErrors(check.errors, ex.value, 2).join('; ')}`,
      });
      return false;
    });
    const sample = () => {
      const d = draw(model, body.schema, { direction: 'request' });
      const at = pointerOf(op.pointer, 'requestBody', 'content', body.mediaType, 'schema');
      return {
        ...base,
        name: 'schema sample',
        body: d.value,
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
  built.set(op, { specs, warnings });
  return { specs: structuredClone(specs), warnings };
}

const coercing = new WeakMap<ServiceModel, SchemaValidator>();

/**
 * Whether a request body example is valid, as the server reads it: every kind is checked (a
 * form or multipart example too, its fields coerced from text as a server does), and `required`
 * waives readOnly fields. An example the schema refuses is not sent as a valid request (issue 26:
 * an enum or `format: uri` broken in a form example was, and the mock's rightful 400 counted as
 * the target's failure).
 */
function exampleCheck(
  model: ServiceModel,
  kind: string,
  schema: JsonSchema,
): ((value: unknown) => boolean) & { errors?: ErrorObject[] } {
  const text = kind === 'form' || kind === 'multipart';
  let v = text ? coercing.get(model) : validatorFor(model);
  if (!v) coercing.set(model, (v = createSchemaValidator(model, { coerceTypes: 'array' })));
  const fn = v.compile(schema);
  const check = (value: unknown) => {
    if (kind === 'binary') return true; // bytes: no schema speaks of them
    const copy = structuredClone(value);
    check.errors = fn(copy) ? [] : directionalErrors(model, fn.errors, 'request');
    return check.errors.length === 0;
  };
  check.errors = [] as ErrorObject[];
  return check;
}

/**
 * Response examples that do not match their schemas (a mock answers a schema sample instead). A
 * worker in the runner's process has the runner work them out (scheduler-channel.ts), where the
 * embedded mock has compiled the same schemas with the same Ajv: compiled once, not per thread.
 */
export function responseExampleWarnings(model: ServiceModel, op: Operation): DescriptionWarning[] {
  const out: DescriptionWarning[] = [];
  for (const r of op.responses) {
    if (r.schema === undefined || r.kind !== 'json' || r.examples.length === 0) continue;
    const check = validatorFor(model).compile(r.schema);
    for (const ex of r.examples)
      if (!check(ex.value))
        out.push({
          code: 'example-invalid',
          operation: op.id,
          pointer: pointerOf(
            op.pointer,
            'responses',
            r.status,
            'content',
            r.mediaType ?? '',
            'examples',
            ex.name,
          ),
          message: `response ${r.status} example ${JSON.stringify(ex.name)} does not match its schema: ${describeErrors(check.errors, ex.value, 2).join('; ')}`,
        });
  }
  return out;
}

/**
 * Whether a parameter is where the operation's credential goes (same place and name: NYTimes'
 * optional query `api-key` beside its `api-key` scheme). The credential fills it: a value of
 * the parameter's own would come first on the wire (`?api-key=&api-key=***`) and the server
 * read the key as missing (corpus nytimes.com/books_api, 401 on fuzz valid requests).
 */
export function carriesCredential(op: Operation, p: Parameter): boolean {
  const same = (a: string, b: string) =>
    p.in === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b;
  return op.auth.transports.some((t) => 'name' in t && t.in === p.in && same(t.name, p.name));
}

/** The value a valid request sends for a parameter (and whether it is valid); undefined: leave it out. */
function parameterValue(
  model: ServiceModel,
  op: Operation,
  p: Parameter,
  warnings: DescriptionWarning[],
): { value: unknown; valid: boolean; why: string } | undefined {
  const s = p.schema as Obj;
  const given =
    p.example !== undefined
      ? p.example
      : typeof s === 'object' && Array.isArray(s['examples']) && s['examples'].length > 0
        ? s['examples'][0]
        : undefined;
  // An empty path value is no segment at all (`/company/x/` for an enum with ""): brex.io.
  const sendable = (v: unknown) => p.in !== 'path' || !emptySegment(v);
  if (given !== undefined) {
    const check = validatorFor(model).compile(p.schema);
    if (check(given) && sendable(given)) return { value: given, valid: true, why: '' };
    if (!sendable(given)) return requestSample(model, p.schema, sendable);
    warnings.push({
      code: 'example-invalid',
      operation: op.id,
      pointer: pointerOf(op.pointer, 'parameters'),
      message: `example of ${p.in} parameter ${p.name} (${JSON.stringify(given)}) does not match its schema (a schema sample is sent instead): ${describeErrors(check.errors, given, 2).join('; ')}`,
    });
    return requestSample(model, p.schema);
  }
  // Optional parameters without an example stay out: the spec gives no value to trust; but a
  // header that fetch would fill with a value its schema refuses is sent with a valid one.
  return p.required || mustSend(model, p) ? requestSample(model, p.schema, sendable) : undefined;
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
  const names = [...clashes.get(p.name)!.keys()].join(', ');
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

export interface SerialiseOptions {
  /** Path template to use (the preview path for the preview variant). */
  path: string;
  key: KeyMode;
  appkey: string;
  method?: string;
  /** Override the body's media type (415 probes), sending the body as JSON text. */
  contentType?: string;
  purpose: string;
  /** The model, for bodies written by their schema (XML by its `xml` hints); JSON text without it. */
  model?: SchemaRoot;
}

export function serialise(op: Operation, spec: RequestSpec, o: SerialiseOptions): OutgoingRequest {
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  const named = (list: Parameter[]) => new Map(list.map((p) => [p.name, p]));
  const params = {
    path: named(op.parameters.path),
    query: named(op.parameters.query),
    header: named(op.parameters.header),
    cookie: named(op.parameters.cookie),
  };
  // Properties of a query object another parameter also writes are never sent (query-objects.ts).
  const clashes = o.model ? queryNameClashes(o.model, op) : undefined;
  for (const [name, value] of Object.entries(spec.query))
    query.push(
      ...queryPairs(name, withoutClashes(value, clashes?.get(name)), params.query.get(name)),
    );
  // Cookie parameters travel in `spec.header` under their name; on the wire they are cookies.
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(spec.header)) {
    const header = params.header.get(name);
    const cookie = header ? undefined : params.cookie.get(name);
    if (cookie) cookies.push(`${name}=${encodeURIComponent(simple(name, value, cookie))}`);
    else headers[name] = simple(name, value, header);
  }
  let body: unknown = spec.omitBody ? undefined : structuredClone(spec.body);

  // The key: the body transport when the example carries the body key, else the first other one.
  const keyValue = o.key === 'wrong' ? WRONG_KEY : o.appkey;
  const bodyKey = op.auth.transports.find((t) => t.in === 'body');
  const bodyObj =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Obj) : undefined;
  const useBodyKey = !!bodyKey && !!bodyObj && bodyKey.name in bodyObj;
  if (bodyKey && bodyObj) delete bodyObj[bodyKey.name];
  if (o.key !== 'none') {
    // Every scheme of one security requirement (AND), written the scheme's way (Basic, Bearer).
    const requirement = useBodyKey && bodyKey ? [bodyKey] : chooseRequirement(op.auth, undefined);
    for (const t of requirement.filter((x) => useBodyKey || x.in !== 'body')) {
      const place = placeCredential(t, keyValue);
      if (place.in === 'query')
        query.push([encodeURIComponent(place.name), encodeURIComponent(place.value)]);
      else if (place.in === 'header')
        headers[place.name === 'Authorization' ? 'authorization' : place.name] = place.value;
      else if (place.in === 'cookie')
        cookies.push(`${place.name}=${encodeURIComponent(place.value)}`);
      else if (bodyObj) bodyObj[place.name] = place.value;
    }
  }
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');

  let path = o.path;
  for (const [name, value] of Object.entries(spec.path))
    path = path.split(`{${name}}`).join(pathValue(name, value, params.path.get(name)));
  // Names and values are percent-encoded already (queryPairs; the credential below).
  const qs = query.map(([k, v]) => `${k}=${v}`).join('&');

  let payload: string | Uint8Array<ArrayBuffer> | undefined;
  const method = (o.method ?? op.method).toLowerCase();
  // GET and HEAD carry no body (fetch refuses one): a wrong-method probe sends the rest.
  if (body !== undefined && op.body && method !== 'get' && method !== 'head') {
    if (o.contentType !== undefined) {
      headers['content-type'] = o.contentType;
      payload = JSON.stringify(body);
    } else if (op.body.kind === 'multipart' || op.body.kind === 'form') {
      if (op.body.kind === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        // Per the body's encoding (deepObject, explode, delimited); object fields never as JSON.
        payload = encodeForm((body ?? {}) as Obj, op.body.encoding);
      } else {
        const form = multipart(multipartParts(body, op.body.fileFields));
        headers['content-type'] = form.contentType;
        payload = form.body;
      }
    } else if (op.body.kind === 'json') {
      headers['content-type'] = op.body.mediaType;
      payload = JSON.stringify(body);
    } else {
      headers['content-type'] = op.body.mediaType;
      payload =
        typeof body === 'string'
          ? body
          : o.model && isXmlMedia(op.body.mediaType)
            ? toXml(o.model, op.body.schema, body)
            : JSON.stringify(body);
    }
  }
  return {
    method,
    pathAndQuery: qs ? `${path}?${qs}` : path,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    purpose: o.purpose,
    parameters: carried(spec),
  };
}

/** A path value in its parameter's style (simple `a,b`, label `.a.b`, matrix `;id=a,b`). */
function pathValue(name: string, value: unknown, p: Parameter | undefined): string {
  if (jsonContent(p)) return encodeURIComponent(JSON.stringify(value));
  const style = (p?.style ?? 'simple') as 'simple' | 'label' | 'matrix';
  const explode = p?.explode ?? false;
  if (Array.isArray(value)) return serializeArrayParam(name, value.map(scalar), { style, explode });
  if (typeof value === 'object' && value !== null)
    return serializeObjectParam(name, value as Record<string, unknown>, { style, explode });
  const text = encodeURIComponent(scalar(value));
  return style === 'label' ? `.${text}` : style === 'matrix' ? `;${name}=${text}` : text;
}

/** Whether a parameter is described by `content` of a JSON media type. */
const jsonContent = (p: Parameter | undefined) =>
  p?.mediaType !== undefined && /json/i.test(p.mediaType);

/** A header value in the simple style: `a,b` for a list, `k,v` (or `k=v` exploded) for an object. */
function simple(name: string, value: unknown, p: Parameter | undefined): string {
  if (jsonContent(p)) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Obj);
    return p?.explode
      ? entries.map(([k, v]) => `${k}=${scalar(v)}`).join(',')
      : entries.flatMap(([k, v]) => [k, scalar(v)]).join(',');
  }
  return scalar(value);
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A query parameter as `name=value` pairs, the values already percent-encoded. */
function queryPairs(name: string, value: unknown, p: Parameter | undefined): [string, string][] {
  const enc = (v: unknown) => encodeURIComponent(scalar(v));
  const key = encodeURIComponent(name);
  // A parameter described by `content` is one value in its media type: JSON text, never the
  // form style (`?q=1&q=2` for `[1,2]` read back as strings: corpus superset.apache.local).
  if (jsonContent(p)) return [[key, encodeURIComponent(JSON.stringify(value))]];
  // A list or object not exploded is one value whose delimiter stays literal: an encoded one
  // (`%2C`) is part of an item (RFC 3986), which is how the server tells `a,b` from `["a,b"]`.
  const delimiter =
    p?.style === 'spaceDelimited' ? '%20' : p?.style === 'pipeDelimited' ? '|' : ',';
  if (Array.isArray(value)) {
    const explode = p?.explode ?? true;
    return explode ? value.map((v) => [key, enc(v)]) : [[key, value.map(enc).join(delimiter)]];
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Obj);
    if (p?.style === 'deepObject')
      return entries.map(([k, v]) => [encodeURIComponent(`${name}[${k}]`), enc(v)]);
    if (p?.explode ?? true) return entries.map(([k, v]) => [encodeURIComponent(k), enc(v)]);
    return [[key, entries.flatMap(([k, v]) => [encodeURIComponent(k), enc(v)]).join(',')]];
  }
  return [[key, enc(value)]];
}

const MEDIA: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  json: 'application/json',
  png: 'image/png',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** File parts sent for a file field example: name, media type and bytes (the round trip compares names). */
export function fileFromExample(
  value: unknown,
  index: number,
): { name: string; type: string; text: string } {
  const text = typeof value === 'string' ? value : '';
  const m = /^<binary content of (.+)>$/.exec(text);
  const name = m?.[1] ?? `document-${index + 1}.txt`;
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const bytes = `dataapi contract test file ${index + 1}: ${name}\n`;
  return { name, type: MEDIA[ext] ?? 'application/octet-stream', text: bytes };
}

export type Part = { name: string; value?: string; file?: string; type?: string; text?: string };

/** The parts of a multipart body: fields as text, file fields as files. */
export function multipartParts(body: unknown, fileFields: string[]): Part[] {
  const parts: Part[] = [];
  if (typeof body !== 'object' || body === null) return parts;
  let n = 0;
  for (const [name, value] of Object.entries(body as Obj)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (fileFields.includes(name)) {
        const f = fileFromExample(v, n++);
        parts.push({ name, file: f.name, type: f.type, text: f.text });
      } else parts.push({ name, value: scalar(v) });
    }
  }
  return parts;
}

/** A name in a part header, escaped as browsers do (WHATWG: `"` and line breaks). */
const quoted = (s: string) =>
  `"${s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * multipart/form-data with a boundary derived from the content (FormData's is random), so the
 * same request is the same bytes every time (fuzzing replays byte for byte).
 */
function multipart(parts: Part[]): { contentType: string; body: Uint8Array<ArrayBuffer> } {
  const pieces = parts.map((p) =>
    p.file !== undefined
      ? `Content-Disposition: form-data; name=${quoted(p.name)}; filename=${quoted(p.file)}\r\nContent-Type: ${p.type}\r\n\r\n${p.text}`
      : `Content-Disposition: form-data; name=${quoted(p.name)}\r\n\r\n${p.value}`,
  );
  const all = pieces.join('');
  let boundary = `----dataapi-${hashText(all).toString(16).padStart(8, '0')}`;
  while (all.includes(boundary)) boundary += 'x';
  const text = pieces.map((x) => `--${boundary}\r\n${x}\r\n`).join('') + `--${boundary}--\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: new TextEncoder().encode(text),
  };
}
