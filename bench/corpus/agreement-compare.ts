/**
 * Whether a value the server read back is the value the suite meant, and whether a refusal names
 * the reason a negative case was made for. Each allowance for what an encoding cannot carry is
 * listed where it is made.
 */
import type { JsonSchema, ServiceModel } from '../../model/index.ts';
import { deref, propertiesOf } from '../../model/index.ts';
import type { NegativeCase } from '../../contract-tests/negatives.ts';
import type { Refusal } from './agreement-read.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The suite's text for a scalar (serialise.ts `scalar`): JSON for anything but a string. */
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Deep equality, where `textual` (a value that travelled as text: path, query, header, cookie,
 * form and multipart fields) lets a scalar equal its text. Allowance 1: text carries no type, and
 * the server coerces only to the type the schema names; where the schema admits a string (or names
 * no type) `5` and `"5"` are the same text and no server can tell them apart.
 */
export function sameValue(a: unknown, b: unknown, textual: boolean): boolean {
  if (a === b) return true; // numbers: -0 and 0 are one JSON text too
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i], textual));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k], textual));
  }
  if (textual && !isObject(a) && !isObject(b) && a !== undefined && b !== undefined)
    return text(a) === text(b);
  return false;
}

/**
 * Allowance 5: where a parameter's schema admits one value or a list of them (`anyOf: [string,
 * array of strings]`), a list of one item and that item are one text (`?ids=a`, `/names/a`), which
 * the server reads as the one value (validate-views.ts firstFitting): a list of one sent may come
 * back as its item. One value sent must still come back as that value.
 */
export function sameOneOrList(sent: unknown, read: unknown, types: Set<string>): boolean {
  const scalar = [...types].some((t) => t !== 'array' && t !== 'object');
  return (
    types.has('array') &&
    scalar &&
    Array.isArray(sent) &&
    sent.length === 1 &&
    !Array.isArray(read) &&
    // The suite writes null as an empty text (serialise.ts): `?ids=` is a list of one null and
    // the empty string alike, and the server reads the string (Discord's sku_ids).
    (sameValue(sent[0], read, true) || (sent[0] === null && read === ''))
  );
}

/**
 * Allowance 9: where a parameter's schema admits null, the suite writes null as the empty text
 * (serialise.ts) and the server reads the empty text as null (validate-views.ts firstFitting): an
 * empty string sent (Getty Images' nullable `phrase`, `default: ""`) is that same text on the
 * wire, and comes back as null.
 */
export function emptyIsNull(sent: unknown, read: unknown, types: Set<string>): boolean {
  return sent === '' && read === null && types.has('null');
}

/**
 * Allowance 8: a text that fits more than one option of a union is read as the first option that
 * fits (validate-views.ts inTurn): a string drawn for a later option (`+4378`, OpenSearch's
 * StringifiedInteger as text) comes back as the number or boolean Ajv coerces that text to.
 */
export function firstReading(sent: unknown, read: unknown, types: Set<string>): boolean {
  if (typeof sent !== 'string' || !types.has('string')) return false;
  if (typeof read === 'number') return sent.trim() !== '' && Number(sent) === read;
  if (typeof read === 'boolean') return sent === String(read);
  return false;
}

/**
 * The read value without the top-level fields the server filled from their `default`s (allowance
 * 2: fillDefaults adds what the request left out, by design) and without file fields (allowance
 * 3: the suite sends a file named after the example, and the server hands files over apart).
 */
export function withoutAdded(
  model: ServiceModel,
  schema: JsonSchema,
  sent: unknown,
  read: unknown,
  files: string[] = [],
): unknown {
  if (!isObject(read) || !isObject(sent)) return read;
  const props = propertiesOf(model, schema);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(read)) {
    if (files.includes(k)) continue;
    if (!Object.hasOwn(sent, k) && hasDefault(model, props.get(k))) continue;
    out[k] = v;
  }
  return out;
}

/**
 * Beside a `$ref` (3.1: Alchemy's `refreshCache`) or behind it (probely.com's `verified: {$ref:
 * .../verified}`, a readOnly default).
 */
function hasDefault(model: ServiceModel, schema: JsonSchema | undefined): boolean {
  const has = (s: JsonSchema | undefined) => typeof s === 'object' && s !== null && 'default' in s;
  return has(schema) || has(deref(model, schema));
}

/** The Ajv keywords a refusal for each kind of negative case names. */
const KEYWORDS: Record<NegativeCase['kind'], string[]> = {
  missing: ['required'],
  body: ['required'],
  range: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'],
  enum: ['enum'],
  type: ['type'],
  length: ['maxLength', 'minLength'],
  pattern: ['pattern'],
  format: ['format'],
};

/** Ajv's messages for the same keywords, for refusals that carry only their text (HttpError). */
const WORDS: Record<NegativeCase['kind'], RegExp> = {
  missing: /required/,
  body: /required/,
  range: /must be [<>]=? /,
  enum: /allowed values|equal to/,
  type: /must be (integer|number|boolean|string|object|array|null)/,
  length: /must NOT have (more|fewer) than/,
  pattern: /must match pattern/,
  format: /must match format/,
};

/** The parts a target's location is refused in (`header.x` carries cookies too). */
const PARTS: Record<string, Refusal['part'][]> = {
  path: ['params'],
  query: ['querystring'],
  header: ['headers', 'cookie'],
  body: ['body'],
};

/** Whether a refusal is for the reason the case was made: its part, its name, its keyword. */
export function refusedForReason(c: NegativeCase, r: Refusal): boolean {
  const [loc, ...rest] = c.target.split('|')[0]!.split('.');
  const name = rest.join('.');
  // A path value too long for the router: the server's 414, which the suite takes as a refusal
  // of a value too large (checks/behaviour.ts), is the reason a length case was made.
  if (loc === 'path' && c.kind === 'length' && r.status === 414) return true;
  if (!PARTS[loc!]?.includes(r.part)) return false;
  if (c.kind === 'body')
    return /body/.test(r.message) || r.errors.some((e) => e.instancePath === '');
  // The whole body of another type, or an array body with a null item: an error at its root or
  // at one of its items.
  if (loc === 'body' && name === '')
    return r.errors.some(
      (e) =>
        (e.instancePath === '' || /^\/\d+$/.test(e.instancePath)) &&
        KEYWORDS[c.kind].includes(e.keyword),
    );
  const key = loc === 'header' ? name.toLowerCase() : name;
  if (r.errors.length === 0) return r.message.includes(key) && WORDS[c.kind].test(r.message);
  return r.errors.some((e) =>
    c.kind === 'missing'
      ? e.keyword === 'required' && e.params['missingProperty'] === key
      : (e.instancePath === `/${escape(key)}` || e.instancePath.startsWith(`/${escape(key)}/`)) &&
        KEYWORDS[c.kind].includes(e.keyword),
  );
}

/** A name as a JSON pointer token. */
const escape = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');
