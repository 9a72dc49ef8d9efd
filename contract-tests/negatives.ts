/**
 * Negative cases derived from each parameter's and body field's schema (never hand-listed).
 *
 * Only values that stay invalid on the wire are used: in a query string, header or path every
 * value is text, so "a number where a string is expected" cannot be expressed there, an empty
 * string may read as "absent", and servers legitimately coerce "12" to 12. Where a server may
 * coerce JSON (Ajv's coerceTypes), values are picked that no coercion rescues: "abc" for numbers,
 * an object for strings and arrays. `pattern` has no generic counterexample, so none is used; a
 * string `format` the validator checks gets a value outside it (format-negatives.ts), whose
 * acceptance is only a warning (`format` is an annotation unless asserted). A wrong type is only
 * sent where the schema writes its `type`; a required value with a `default` is not left out.
 */
import {
  allParameters,
  keyTransport,
  sentBody,
  type JsonSchema,
  type Obj,
  type Operation,
  type ParameterLocation,
  type ServiceModel,
} from 'dataapi/model';
import { canLeaveOut, framingParameter } from './fetch-headers.ts';
import { formatNegative } from './format-negatives.ts';
import { misreadOnWire } from './path-values.ts';
import { carriesCredential, type RequestSpec } from './requests.ts';
import { effective, objectShape, typesOf } from 'dataapi/runtime/sampler';

export interface NegativeCase {
  /** What is wrong, e.g. `query pageSize=21 (above maximum 20)`. */
  label: string;
  /** Where: `query.pageSize`, `body.score`, `body` (whole body). */
  target: string;
  kind: 'missing' | 'range' | 'enum' | 'type' | 'length' | 'pattern' | 'format' | 'body';
  apply(spec: RequestSpec): RequestSpec;
}

const MAX_CASES = 24;

/**
 * Longest invalid string a case sends: in a URL or header (where servers refuse long requests with
 * 414/431 or drop the connection) and in a body. A maximum beyond them yields no length case.
 */
export const MAX_SENT_LENGTH = { onWire: 1024, body: 16 * 1024 };

export function negativeCases(model: ServiceModel, op: Operation): NegativeCase[] {
  const out: NegativeCase[] = [];
  // Parameters: missing required (not path: that changes the route), then invalid values.
  for (const p of allParameters(op.parameters)) {
    if (carriesCredential(op, p)) continue; // the key fills it: the auth probes cover it
    const loc = p.in;
    // A header fetch always writes (User-Agent, ...) cannot be left out either (coverage lists it).
    // A readOnly schema waives `required` in a request, as for a body field, and the server reads
    // it so (Invoice Ninja: a required X-Requested-With, readOnly): its absence is no invalid case.
    const readOnly = effective(model, p.schema).s['readOnly'] === true;
    if (p.required && canLeaveOut(p) && !hasDefault(model, p.schema) && !readOnly)
      out.push({
        label: `${p.in} ${p.name} missing (required)`,
        target: `${loc}.${p.name}`,
        kind: 'missing',
        apply: (s) => without(s, loc, p.name),
      });
    // Nor can a value the HTTP layer writes be invalid (corpus Mojaloop: Content-Length="abc").
    if (framingParameter(p)) continue;
    for (const bad of invalidValues(resolved(model, p.schema), true)) {
      // A path value read on the wire as other values, or as another template's URL, is no
      // invalid request of this operation (path-values.ts).
      if (misreadOnWire(model, op, p, bad.value)) continue;
      out.push({
        label: `${p.in} ${p.name}=${show(bad.value)} (${bad.why})`,
        target: `${loc}.${p.name}`,
        kind: bad.kind,
        apply: (s) => withValue(s, loc, p.name, bad.value),
      });
    }
  }
  for (const group of op.requireAnyOf)
    out.push({
      label: `none of ${group.join(', ')} sent (one is required)`,
      target: group.map((n) => `query.${n}`).join('|'),
      kind: 'missing',
      apply: (s) => group.reduce((acc, n) => without(acc, 'query', n), s),
    });

  // GET and HEAD send no body: no body case either.
  const body = sentBody(op);
  if (body && (body.kind === 'json' || body.kind === 'multipart' || body.kind === 'form')) {
    const onWire = body.kind !== 'json'; // multipart/form fields are text, like a query
    if (body.required)
      out.push({
        label: 'request body missing (required)',
        target: 'body',
        kind: 'body',
        apply: (s) => ({ ...s, omitBody: true }),
      });
    const { properties, required } = objectShape(model, body.schema);
    const keyField = keyTransport(op.auth, 'body')?.name;
    // readOnly fields are the server's to write: a request may leave them out (or send anything).
    const readOnly = (name: string) =>
      properties[name] !== undefined && effective(model, properties[name]!).s['readOnly'] === true;
    for (const name of required)
      if (name !== keyField && !hasDefault(model, properties[name]) && !readOnly(name))
        out.push({
          label: `body field ${name} missing (required)`,
          target: `body.${name}`,
          kind: 'missing',
          apply: (s) => withoutField(s, name),
        });
    // The whole JSON body: a value of another type, null, or an array holding a null item.
    if (!onWire)
      for (const bad of [
        ...invalidValues(resolved(model, body.schema), false),
        ...(body.required ? nullBody(model, body.schema) : []),
        ...nullItem(model, body.schema),
      ])
        out.push({
          label: `body=${show(bad.value)} (${bad.why})`,
          target: 'body',
          kind: bad.kind,
          apply: (s) => ({ ...s, body: bad.value }),
        });
    for (const [name, schema] of Object.entries(properties)) {
      if (name === keyField || body.fileFields.includes(name) || readOnly(name)) continue;
      const bads = invalidValues(resolved(model, schema), onWire);
      if (!onWire) bads.push(...nullItem(model, schema));
      for (const bad of bads)
        out.push({
          label: `body field ${name}=${show(bad.value)} (${bad.why})`,
          target: `body.${name}`,
          kind: bad.kind,
          apply: (s) => withField(s, name, bad.value),
        });
    }
  }
  return prioritise(out);
}

/**
 * Keeps the list bounded (rate limits cost time): every missing-required case first, then one
 * invalid value per field (ranges before enumerations before types), then the rest.
 */
function prioritise(cases: NegativeCase[]): NegativeCase[] {
  // Formats last: a case added for them leaves the others' order (and the cut) as it was.
  const order = ['missing', 'body', 'range', 'enum', 'type', 'length', 'pattern', 'format'];
  const sorted = [...cases].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  const seen = new Set<string>();
  const first: NegativeCase[] = [];
  const rest: NegativeCase[] = [];
  for (const c of sorted) {
    const key = c.kind === 'missing' || c.kind === 'body' ? `${c.target} missing` : c.target;
    (seen.has(key) ? rest : first).push(c);
    seen.add(key);
  }
  return [...first, ...rest].slice(0, MAX_CASES);
}

/**
 * A required value with a `default` may be left out: a server may assume the default (OpenAPI:
 * "the value ... assumed if one is not provided"), so its absence is no negative case.
 */
function hasDefault(model: ServiceModel, schema: JsonSchema | undefined): boolean {
  return schema !== undefined && effective(model, schema).s['default'] !== undefined;
}

/** The merged schema ($ref and allOf followed); alternatives marked, so no case is derived from them. */
function resolved(model: ServiceModel, schema: JsonSchema): Obj {
  const e = effective(model, schema);
  return e.choices.length > 0 ? { ...e.s, anyOf: e.choices } : e.s;
}

interface Bad {
  value: unknown;
  why: string;
  kind: NegativeCase['kind'];
}

/** Values the schema rejects that stay invalid after serialisation (text on the wire or JSON). */
export function invalidValues(s: Obj, onWire: boolean): Bad[] {
  // A bound past the safe integers (int64) has no neighbour a double can write: no range case.
  const exact = (n: number | undefined) =>
    n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined;
  const out: Bad[] = [];
  if (s['anyOf'] || s['oneOf'] || s['not'] || s['if']) return out; // too open to reason about
  const types = typesOf(s);
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const numeric = types.includes('integer') || types.includes('number');
  if (numeric && !types.includes('string')) {
    const step = 1; // max + 1 is outside the range for integers and numbers alike (score 751)
    const max = exact(num('maximum'));
    const min = exact(num('minimum'));
    const xmax = exact(num('exclusiveMaximum'));
    const xmin = exact(num('exclusiveMinimum'));
    if (max !== undefined)
      out.push({ value: max + step, why: `above maximum ${max}`, kind: 'range' });
    if (xmax !== undefined)
      out.push({ value: xmax, why: `not below exclusiveMaximum ${xmax}`, kind: 'range' });
    if (min !== undefined)
      out.push({ value: min - step, why: `below minimum ${min}`, kind: 'range' });
    if (xmin !== undefined)
      out.push({ value: xmin, why: `not above exclusiveMinimum ${xmin}`, kind: 'range' });
  }
  const en = Array.isArray(s['enum']) ? (s['enum'] as unknown[]) : undefined;
  if (en && en.length > 0) {
    if (en.every((v) => typeof v === 'string'))
      out.push({ value: 'dataapi-not-in-enum', why: `not one of ${en.join(', ')}`, kind: 'enum' });
    else if (en.every((v) => typeof v === 'number'))
      out.push({ value: Math.max(...(en as number[])) + 1, why: 'not in enum', kind: 'enum' });
  }
  // Type cases only where the type is written: `properties` alone admits any type.
  const declared =
    typeof s['type'] === 'string' ? [s['type']] : Array.isArray(s['type']) ? s['type'] : [];
  if (declared.length > 0 && !types.includes('string')) {
    // A value of a type the schema does not allow, chosen so that no coercion rescues it.
    if (numeric || types.includes('boolean'))
      out.push({ value: 'abc', why: `not ${types.join(' or ')}`, kind: 'type' });
    else if (types.includes('object') && !onWire)
      out.push({ value: 'abc', why: 'not an object', kind: 'type' });
    else if (types.includes('array') && !onWire)
      out.push({ value: { not: 'an array' }, why: 'not an array', kind: 'type' });
    if (types.includes('integer') && !types.includes('number'))
      out.push({ value: 1.5, why: 'not an integer', kind: 'type' });
  } else if (declared.includes('string') && types.length === 1 && !onWire && !en) {
    out.push({ value: { not: 'a string' }, why: 'not a string', kind: 'type' });
  }
  if (types.includes('string') && (types.length === 1 || !onWire)) {
    const maxLen = num('maxLength');
    const sendable = onWire ? MAX_SENT_LENGTH.onWire : MAX_SENT_LENGTH.body;
    if (maxLen !== undefined && maxLen < sendable)
      out.push({ value: 'x'.repeat(maxLen + 1), why: `longer than ${maxLen}`, kind: 'length' });
    const minLen = num('minLength');
    // An empty string on the wire may mean "absent": only lengths of 1 or more are used.
    if (minLen !== undefined && minLen >= (onWire ? 2 : 1))
      out.push({ value: 'x'.repeat(minLen - 1), why: `shorter than ${minLen}`, kind: 'length' });
  }
  if (types.length === 1 && types[0] === 'string') {
    const bad = formatNegative(s);
    if (bad) out.push(bad);
  }
  return out;
}

/**
 * A required JSON body sent as `null` where the schema is an object, or an array of objects, and
 * admits no null (docs/field.md L2). Not an array of scalars: Ajv's coerceTypes 'array' (which a
 * server may use) reads null as `[null]` and the null item as "", 0 or false.
 */
function nullBody(model: ServiceModel, schema: JsonSchema): Bad[] {
  const s = resolved(model, schema);
  const declared = typeof s['type'] === 'string' ? [s['type']] : s['type'];
  if (!Array.isArray(declared) || declared.length !== 1 || s['anyOf'] || s['nullable'] === true)
    return [];
  if (declared[0] === 'object') return [{ value: null, why: 'not an object', kind: 'type' }];
  if (declared[0] === 'array' && nullItem(model, schema).length > 0)
    return [{ value: null, why: 'not an array', kind: 'type' }];
  return [];
}

/**
 * A JSON array whose items are objects, sent with one `null` item. Only object items: Ajv's
 * coerceTypes (which a server may use) turns a null into "", 0 or false, never into an object.
 */
function nullItem(model: ServiceModel, schema: JsonSchema): Bad[] {
  const s = resolved(model, schema);
  if (typesOf(s).join() !== 'array' || typeof s['items'] !== 'object' || s['items'] === null)
    return [];
  const item = resolved(model, s['items'] as JsonSchema);
  const declared = typeof item['type'] === 'string' ? [item['type']] : item['type'];
  const objectOnly = Array.isArray(declared) ? declared.join() === 'object' : declared === 'object';
  if (!objectOnly || item['nullable'] === true || item['anyOf']) return [];
  return [{ value: [null], why: 'an item null, not an object', kind: 'type' }];
}

function show(v: unknown): string {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}

type Loc = ParameterLocation;

function without(s: RequestSpec, loc: Loc, name: string): RequestSpec {
  const copy = { ...s, [loc]: { ...s[loc] } };
  delete copy[loc][name];
  return copy;
}

function withValue(s: RequestSpec, loc: Loc, name: string, value: unknown): RequestSpec {
  return { ...s, [loc]: { ...s[loc], [name]: value } };
}

function bodyObject(s: RequestSpec): Obj {
  return typeof s.body === 'object' && s.body !== null && !Array.isArray(s.body)
    ? structuredClone(s.body as Obj)
    : {};
}

function withoutField(s: RequestSpec, name: string): RequestSpec {
  const body = bodyObject(s);
  delete body[name];
  return { ...s, body };
}

function withField(s: RequestSpec, name: string, value: unknown): RequestSpec {
  return { ...s, body: { ...bodyObject(s), [name]: value } };
}
