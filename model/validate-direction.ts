/**
 * `required` as OpenAPI reads it, wherever it stands: a readOnly property named in `required`
 * binds responses only, a writeOnly one requests only. Filtering Ajv's `required` errors after
 * the fact (directionalErrors) misses one inside a `oneOf`/`anyOf` branch: the branch fails, and
 * the `oneOf` with an error of its own. A direction's view drops the waived names from every
 * `required` instead: the schema root copied under an `$id` of its own, its references pointed at
 * the copy. Made once per model and direction, and only when some `required` names a flagged
 * property (most descriptions: none, and no copy).
 */
import { resolveRef } from './schema.ts';
import type { ServiceModel } from './service-model.ts';
import { SCHEMA_ROOT_ID, type JsonSchema } from './types.ts';

export type Direction = 'request' | 'response';

const WAIVED = { request: 'readOnly', response: 'writeOnly' } as const;

/** Keys whose value is data, never a schema. */
const LITERAL = new Set(['enum', 'const', 'default', 'example', 'examples']);
/** Keys whose value maps names to schemas (a property named `enum` is still a schema). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

export interface DirectedView {
  /** The copy of the schema root, to add to the Ajv that compiles the view's schemas. */
  root: object;
  /** A schema of the model as the direction reads it (the same object for the same schema). */
  of(schema: JsonSchema): JsonSchema;
}

const views = new WeakMap<ServiceModel, Map<Direction, DirectedView | null>>();

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

/** The direction's view of the model's schemas, or undefined when it reads them as they are. */
export function directedView(model: ServiceModel, direction: Direction): DirectedView | undefined {
  let byDirection = views.get(model);
  if (!byDirection) views.set(model, (byDirection = new Map()));
  if (byDirection.has(direction)) return byDirection.get(direction) ?? undefined;
  const id = `${SCHEMA_ROOT_ID}:${direction}`;
  const flag = WAIVED[direction];
  let waived = false;
  const copy = (node: unknown, map = false, depth = 0): unknown => {
    if (depth > 200) return node; // deeper than any real schema: left as it is
    if (Array.isArray(node)) return node.map((v) => copy(v, false, depth + 1));
    if (!isObj(node)) return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (map) out[k] = copy(v, false, depth + 1);
      else if (k === '$ref' && typeof v === 'string')
        out[k] = v.startsWith(`${SCHEMA_ROOT_ID}#`) ? id + v.slice(SCHEMA_ROOT_ID.length) : v;
      else if (k === '$id' && v === SCHEMA_ROOT_ID) out[k] = id;
      else if (LITERAL.has(k)) out[k] = v;
      else out[k] = copy(v, SCHEMA_MAPS.has(k), depth + 1);
    }
    const props = node['properties'];
    if (!map && Array.isArray(node['required']) && isObj(props)) {
      const kept = node['required'].filter(
        (n) =>
          !(typeof n === 'string' && Object.hasOwn(props, n) && flagged(model, props[n], flag)),
      );
      if (kept.length !== node['required'].length) {
        waived = true;
        out['required'] = kept;
      }
    }
    return out;
  };
  const root = copy(model.schemaRoot) as object;
  if (!waived) {
    byDirection.set(direction, null);
    return undefined;
  }
  const seen = new WeakMap<object, JsonSchema>();
  const view: DirectedView = {
    root,
    of(schema) {
      if (!isObj(schema)) return schema;
      let known = seen.get(schema);
      if (!known) seen.set(schema, (known = copy(schema) as JsonSchema));
      return known;
    },
  };
  byDirection.set(direction, view);
  return view;
}
