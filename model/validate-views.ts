/**
 * Views of the model's schemas for one use, each the schema root copied under an `$id` of its own
 * with its references pointed at the copy: made once per model and view, and only when the view
 * changes something (most descriptions: no copy).
 *
 * - `request` / `response`: `required` as OpenAPI reads it, wherever it stands. A readOnly
 *   property named in `required` binds responses only, a writeOnly one requests only. Filtering
 *   Ajv's `required` errors after the fact (directionalErrors) misses one inside a `oneOf` branch:
 *   the branch fails, and the `oneOf` with an error of its own. The view drops the waived names.
 * - `parameter`: a value read from text (a path, query or header parameter) is coerced, so one
 *   text fits several options ("abc" is a string and, under array coercion, a list of one): any
 *   option that fits is enough, so every `oneOf` reads as `anyOf`, behind a `$ref` too; a list
 *   option beside one-value options is taken only when none of them fits, and a null option takes
 *   the empty text and nothing else (firstFitting).
 * - `text-request`: a form or multipart body, a request whose fields are text read as parameters
 *   are: both of the above (Together's `timestamp_granularities`, one value or a list of them).
 */
import { resolveRef } from './schema.ts';
import type { ServiceModel } from './service-model.ts';
import { SCHEMA_ROOT_ID, type JsonSchema } from './types.ts';

export type Direction = 'request' | 'response';
export type SchemaView = Direction | 'parameter' | 'text-request';

const WAIVED = {
  request: 'readOnly',
  response: 'writeOnly',
  parameter: undefined,
  'text-request': 'readOnly',
} as const;

/** Keys whose value is data, never a schema. */
const LITERAL = new Set(['enum', 'const', 'default', 'example', 'examples']);
/** Keys whose value maps names to schemas (a property named `enum` is still a schema). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

export interface View {
  /** The copy of the schema root, to add to the Ajv that compiles the view's schemas. */
  root: object;
  /** A schema of the model as the direction reads it (the same object for the same schema). */
  of(schema: JsonSchema): JsonSchema;
}

const views = new WeakMap<ServiceModel, Map<SchemaView, View | null>>();

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a property schema (or what its `$ref` / `allOf` names) carries `flag: true`. */
export function flagged(
  model: ServiceModel,
  schema: unknown,
  flag: 'readOnly' | 'writeOnly',
): boolean {
  let s = schema;
  for (let i = 0; i < 8 && isObj(s); i++) {
    if (s[flag] === true) return true;
    if (Array.isArray(s['allOf']) && s['allOf'].some((p) => flagged(model, p, flag))) return true;
    if (typeof s['$ref'] !== 'string') return false;
    s = resolveRef(model, s['$ref']);
  }
  return false;
}

/** The property names flagged in any of the allOf parts (behind `$ref`s, nested allOf too). */
function partsFlagged(
  model: ServiceModel,
  parts: unknown[],
  flag: 'readOnly' | 'writeOnly',
  above: Set<string> | undefined,
): Set<string> | undefined {
  const names = new Set(above);
  const visit = (part: unknown, depth: number) => {
    let s = part;
    for (let i = 0; i < 8 && isObj(s) && typeof s['$ref'] === 'string'; i++)
      s = resolveRef(model, s['$ref']);
    if (!isObj(s) || depth > 8) return;
    if (isObj(s['properties']))
      for (const [n, sub] of Object.entries(s['properties']))
        if (flagged(model, sub, flag)) names.add(n);
    if (Array.isArray(s['allOf'])) for (const p of s['allOf']) visit(p, depth + 1);
  };
  for (const part of parts) visit(part, 0);
  return names.size > 0 ? names : undefined;
}

/** A view of the model's schemas, or undefined when it reads them as they are. */
export function schemaView(model: ServiceModel, kind: SchemaView): View | undefined {
  let byKind = views.get(model);
  if (!byKind) views.set(model, (byKind = new Map()));
  if (byKind.has(kind)) return byKind.get(kind) ?? undefined;
  const id = `${SCHEMA_ROOT_ID}:${kind}`;
  const flag = WAIVED[kind];
  let changed = false;
  const copy = (node: unknown, map = false, depth = 0, above?: Set<string>): unknown => {
    if (depth > 200) return node; // deeper than any real schema: left as it is
    if (Array.isArray(node)) return node.map((v) => copy(v, false, depth + 1, above));
    if (!isObj(node)) return node;
    // A property flagged in one allOf part is flagged for the object (JSON Schema: any true
    // readOnly stands): a `required` in another part waives it too (PagerDuty's `type`).
    const parts = !map && flag && Array.isArray(node['allOf']) ? node['allOf'] : undefined;
    const siblings = parts ? partsFlagged(model, parts, flag!, above) : above;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (map) out[k] = copy(v, false, depth + 1);
      else if (k === 'allOf' && parts) out[k] = copy(v, false, depth, siblings);
      else if (k === '$ref' && typeof v === 'string')
        out[k] = v.startsWith(`${SCHEMA_ROOT_ID}#`) ? id + v.slice(SCHEMA_ROOT_ID.length) : v;
      else if (k === '$id' && v === SCHEMA_ROOT_ID) out[k] = id;
      else if (LITERAL.has(k)) out[k] = v;
      else out[k] = copy(v, SCHEMA_MAPS.has(k), depth + 1);
    }
    if (map) return out;
    const props = node['properties'];
    if (flag && Array.isArray(node['required']) && isObj(props)) {
      const kept = node['required'].filter(
        (n) =>
          !(
            typeof n === 'string' &&
            ((Object.hasOwn(props, n) && flagged(model, props[n], flag)) || siblings?.has(n))
          ),
      );
      if (kept.length !== node['required'].length) {
        changed = true;
        out['required'] = kept;
      }
    }
    if ((kind === 'parameter' || kind === 'text-request') && Array.isArray(out['oneOf'])) {
      changed = true;
      const anyOf = out['oneOf'];
      delete out['oneOf'];
      // Beside an `anyOf` of its own, the options go in an `allOf` (both must still hold).
      if (out['anyOf'] === undefined) out['anyOf'] = anyOf;
      else out['allOf'] = [...(Array.isArray(out['allOf']) ? out['allOf'] : []), { anyOf }];
    }
    if ((kind === 'parameter' || kind === 'text-request') && Array.isArray(out['anyOf'])) {
      const original = Array.isArray(node['oneOf']) ? node['oneOf'] : node['anyOf'];
      const guarded = firstFitting(model, original as unknown[], out['anyOf']);
      const turned = inTurn(model, original as unknown[], guarded ?? out['anyOf']);
      if (guarded || turned) {
        changed = true;
        out['anyOf'] = turned ?? guarded;
      }
    }
    return out;
  };
  const root = copy(model.schemaRoot) as object;
  // A parameter's own schema may need the view where the root does not (an inline `anyOf`):
  // asked for only when one does (needsView), so it is kept. So may a form or multipart body
  // written inline: its one-or-list and null options are guarded only in the view.
  if (!changed && kind !== 'parameter' && kind !== 'text-request') {
    byKind.set(kind, null);
    return undefined;
  }
  const seen = new WeakMap<object, JsonSchema>();
  const view: View = {
    root,
    of(schema) {
      if (!isObj(schema)) return schema;
      let known = seen.get(schema);
      if (!known) seen.set(schema, (known = copy(schema) as JsonSchema));
      return known;
    },
  };
  byKind.set(kind, view);
  return view;
}

/** The one type a schema (behind its `$ref`s) names, if it names one. */
function onlyType(model: ServiceModel, schema: unknown): string | undefined {
  let s = schema;
  for (let i = 0; i < 8 && isObj(s) && typeof s['$ref'] === 'string'; i++)
    s = resolveRef(model, s['$ref']);
  if (!isObj(s)) return undefined;
  const type = Array.isArray(s['type']) && s['type'].length === 1 ? s['type'][0] : s['type'];
  return typeof type === 'string' ? type : undefined;
}

/**
 * The options of a value read from text, so that the option that took it keeps it. Ajv runs every
 * option of an `anyOf` (it tracks unevaluated properties) and its coercion rewrites the value in
 * place: a list option turned the text "a", which a string option had taken, into ["a"], and a
 * null option turned `false`, which a boolean option had taken, into null. So a null option goes
 * first and takes the empty text (as form fields read it), the others only what is not empty
 * or null (`enum` does not coerce), and a list option only what no one-value option takes
 * (`if`/`else`: with allErrors Ajv would run every keyword of an allOf). Undefined when no option
 * is null, nor a list beside one-value options.
 */
function firstFitting(model: ServiceModel, original: unknown[], copied: unknown[]) {
  if (original.length !== copied.length || original.length < 2) return undefined;
  const kinds = original.map((o) => onlyType(model, o));
  const hasNull = kinds.includes('null');
  const lists = copied.filter((_, i) => kinds[i] === 'array');
  const values = copied.filter((_, i) => kinds[i] !== 'array' && kinds[i] !== 'null');
  if (!hasNull && (lists.length === 0 || values.length === 0)) return undefined;
  const empty = { enum: ['', null] };
  const notEmpty = (o: unknown) => (hasNull ? { if: empty, then: false, else: o } : o);
  // Nor does a one-value option see a list of objects: its coercion unwraps a list of one in
  // place, for every later option too (Stripe's `anyOf: [array of objects, enum: ['']]`: the
  // list read from a form reached its own option as its one object). A list of one text is
  // still unwrapped (`a` split from a form value is the string option's). `items` holds for
  // what is no list, and `type: object` coerces nothing.
  const noList = (o: unknown) =>
    lists.length > 0 ? { if: { items: { not: { type: 'object' } } }, then: o, else: false } : o;
  const valueOptions = values.map((o) => noList(notEmpty(o)));
  const one = [...(hasNull ? [empty] : []), ...valueOptions];
  return [
    ...copied.filter((_, i) => kinds[i] === 'null'),
    ...valueOptions,
    ...lists.map((l) =>
      one.length > 0 ? { if: { anyOf: one }, then: false, else: notEmpty(l) } : l,
    ),
  ];
}

/**
 * The options of a value read from text, each tried only when no earlier one fits: Ajv's coercion
 * in a later option rewrote what an earlier one had taken (OpenSearch: `true` for `oneOf: [boolean,
 * integer]` became 1; `+4378`, a StringifiedInteger's integer, became the text "4378" under the
 * next option's `const: all`). An `if`, not `allOf: [not: earlier, option]`: with allErrors Ajv
 * runs every keyword of an allOf. Undefined where no option can coerce what another took: options
 * of one type, objects (never coerced), or more than eight.
 */
function inTurn(model: ServiceModel, original: unknown[], options: unknown[]) {
  if (options.length < 2 || options.length > 8 || original.length < 2) return undefined;
  const kinds = new Set(original.map((o) => onlyType(model, o) ?? '?'));
  kinds.delete('object');
  if (kinds.size < 2 && !(kinds.has('?') && original.length > 1)) return undefined;
  return options.map((o, i) =>
    i === 0 ? o : { if: { anyOf: options.slice(0, i) }, then: true, else: o },
  );
}

/**
 * Whether a schema needs its view to read differently: for `parameter`, whether it reaches a
 * `oneOf` (through `$ref`s), so that a description whose parameters have none never copies its
 * root for them; for a direction, always (its view exists only when it changes something).
 */
export function needsView(model: ServiceModel, schema: JsonSchema, kind: SchemaView): boolean {
  if (kind !== 'parameter') return true;
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number): boolean => {
    if (depth > 64 || typeof node !== 'object' || node === null || seen.has(node)) return false;
    seen.add(node);
    if (Array.isArray(node)) return node.some((v) => visit(v, depth + 1));
    const o = node as Obj;
    if (Array.isArray(o['oneOf'])) return true;
    if (
      Array.isArray(o['anyOf']) &&
      (firstFitting(model, o['anyOf'], o['anyOf']) || inTurn(model, o['anyOf'], o['anyOf']))
    )
      return true;
    if (typeof o['$ref'] === 'string' && visit(resolveRef(model, o['$ref']), depth + 1))
      return true;
    return Object.entries(o).some(([k, v]) => !LITERAL.has(k) && visit(v, depth + 1));
  };
  return visit(schema, 0);
}
