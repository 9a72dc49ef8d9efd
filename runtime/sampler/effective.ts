/**
 * The effective schema of a node: `$ref`s followed and `allOf` parts merged into one object, so
 * generators and negative cases read one set of constraints. The merge intersects (types, enums,
 * bounds) and unions (properties, required); a property named by several parts keeps every part's
 * schema as its own `allOf`, merged when it is visited. `oneOf`/`anyOf` of the parts are kept as
 * choice lists (`choices`), each of which a value must satisfy.
 */
import { isObject, type JsonSchema, type Obj, type ServiceModel } from 'dataapi/model';
import { deref } from '../shared/index.ts';

export interface Effective {
  /** The merged keywords (no `$ref`, no `allOf`, no `oneOf`/`anyOf`). */
  s: Obj;
  /** Alternatives: a value satisfies one schema of each list. */
  choices: { kind: 'oneOf' | 'anyOf'; options: JsonSchema[] }[];
  /** Further patterns from other parts (the first one is `s.pattern`). */
  patterns: string[];
  /** Property names allowed when a part closes the object (`additionalProperties: false`). */
  allowed?: Set<string>;
  /** The schema can hold no value (`false`, or parts that contradict each other). */
  impossible?: string;
}

const MAX_PARTS = 64;

/** Follows `$ref` and merges `allOf` (recursively, bounded). */
export function effective(model: ServiceModel, schema: JsonSchema | undefined): Effective {
  const out: Effective = { s: {}, choices: [], patterns: [] };
  let parts = 0;
  const visit = (node: JsonSchema | undefined, depth: number) => {
    const s = deref(model, node);
    if (s === undefined || s === true) return;
    if (s === false || depth > 16 || parts++ > MAX_PARTS) {
      if (s === false) out.impossible = 'the schema is `false`';
      return;
    }
    const own: Obj = { ...s };
    delete own.$ref;
    delete own.allOf;
    for (const kind of ['oneOf', 'anyOf'] as const) {
      const options = own[kind];
      delete own[kind];
      if (Array.isArray(options) && options.length > 0)
        out.choices.push({ kind, options: options as JsonSchema[] });
    }
    mergeInto(out, own);
    if (Array.isArray(s.allOf)) for (const part of s.allOf) visit(part as JsonSchema, depth + 1);
  };
  visit(schema, 0);
  return out;
}

const MIN_KEYS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const MAX_KEYS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

function typeList(v: unknown): string[] | undefined {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((t): t is string => typeof t === 'string');
  return undefined;
}

/** Types both sides allow (`integer` is a `number`). */
function intersectTypes(a: string[], b: string[]): string[] {
  const out = a.filter((t) => b.includes(t) || (t === 'integer' && b.includes('number')));
  if (a.includes('number') && b.includes('integer') && !out.includes('integer'))
    out.push('integer');
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function mergeInto(out: Effective, part: Obj): void {
  const s = out.s;
  for (const [key, value] of Object.entries(part)) {
    if (value === undefined) continue;
    if (!(key in s)) {
      if (key === 'pattern' && typeof value === 'string') out.patterns.push(value);
      if (key === 'properties' && isObject(value)) s.properties = { ...value };
      else if (key === 'required' && Array.isArray(value)) s.required = [...new Set(value)];
      else s[key] = value;
      continue;
    }
    const cur = s[key];
    if (key === 'type') {
      const both = intersectTypes(typeList(cur) ?? [], typeList(value) ?? []);
      if (both.length === 0) out.impossible = `allOf parts disagree on type (${cur} / ${value})`;
      s.type = both.length === 1 ? both[0] : both;
    } else if (key === 'properties' && isObject(value) && isObject(cur)) {
      const merged: Obj = { ...cur };
      for (const [name, sub] of Object.entries(value))
        merged[name] =
          name in merged && !same(merged[name], sub) ? { allOf: [merged[name], sub] } : sub;
      s.properties = merged;
    } else if (key === 'required' && Array.isArray(value) && Array.isArray(cur)) {
      s.required = [...new Set([...cur, ...value])];
    } else if (MIN_KEYS.includes(key) && typeof value === 'number' && typeof cur === 'number') {
      s[key] = Math.max(cur, value);
    } else if (MAX_KEYS.includes(key) && typeof value === 'number' && typeof cur === 'number') {
      s[key] = Math.min(cur, value);
    } else if (key === 'enum' && Array.isArray(value) && Array.isArray(cur)) {
      const both = cur.filter((c) => value.some((v) => same(c, v)));
      if (both.length === 0) out.impossible = 'allOf parts share no enum value';
      s.enum = both;
    } else if (key === 'const' && !same(cur, value)) {
      out.impossible = `allOf parts require different constants (${JSON.stringify(cur)} / ${JSON.stringify(value)})`;
    } else if (key === 'pattern' && typeof value === 'string' && value !== cur) {
      out.patterns.push(value);
    } else if ((key === 'items' || key === 'additionalProperties') && !same(cur, value)) {
      s[key] =
        cur === false || value === false
          ? false
          : { allOf: [cur === true ? {} : cur, value === true ? {} : value] };
    } else if ((key === 'readOnly' || key === 'writeOnly') && value === true) {
      s[key] = true;
    }
    // Anything else: the first part's word stands (annotations, format, discriminator).
  }
  if (part.additionalProperties === false) {
    const names = new Set(Object.keys(isObject(part.properties) ? part.properties : {}));
    out.allowed = out.allowed ? new Set([...out.allowed].filter((n) => names.has(n))) : names;
  }
}

/** The types a merged schema allows; inferred from its keywords when it has no `type`. */
export function typesOf(s: Obj): string[] {
  const listed = typeList(s.type);
  if (listed && listed.length > 0) return listed;
  if ('const' in s) return [jsonType(s.const)];
  if (Array.isArray(s.enum) && s.enum.length > 0) return [...new Set(s.enum.map(jsonType))];
  if (s.properties || s.required || s.additionalProperties !== undefined) return ['object'];
  if (s.items || s.prefixItems || s.minItems !== undefined) return ['array'];
  if (s.pattern || s.format || s.minLength !== undefined || s.maxLength !== undefined)
    return ['string'];
  if (s.minimum !== undefined || s.maximum !== undefined) return ['number'];
  return [];
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The properties of an object schema ($ref and allOf followed) with its required names. */
export function objectShape(
  model: ServiceModel,
  schema: JsonSchema | undefined,
): { properties: Record<string, JsonSchema>; required: string[] } {
  const { s } = effective(model, schema);
  const properties = (isObject(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  return { properties, required };
}
