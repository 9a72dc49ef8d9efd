/**
 * Query parameters that are objects in style form, exploded (OpenAPI's default for a query
 * object), write each property as its own `property=value` pair: nothing on the wire says which
 * parameter a pair belongs to. A property whose name another query parameter, or a property of
 * another such object, also writes cannot be told apart (AWS descriptions as APIs.guru converts
 * them: CloudFormation's `DeploymentTargets.Accounts` beside its `Accounts`, EC2's
 * `ConnectionLogOptions.Enabled` beside `ClientConnectOptions.Enabled`). Such a property is
 * never sent by the suite and never read into the object by the server: the name belongs to the
 * declared parameter, or to nobody when only objects claim it. The description gets a finding.
 */
import { deref, propertiesOf, type SchemaRoot } from './schema.ts';
import type { JsonSchema, Operation, Parameter } from './types.ts';

/** The properties an object parameter may write: its own, and those of its oneOf/anyOf options. */
const ownProperties = (model: SchemaRoot, p: Parameter) =>
  propertiesOf(model, p.schema, { alternatives: true });

/** Whether a query parameter is an object written property by property (form, explode). */
export function isExplodedQueryObject(model: SchemaRoot, p: Parameter): boolean {
  return (
    p.in === 'query' &&
    p.mediaType === undefined &&
    p.style === 'form' &&
    p.explode &&
    ownProperties(model, p).size > 0
  );
}

/**
 * Per exploded object parameter, its properties whose names are written by something else too,
 * each with what else writes it (`query parameter Accounts`, `property Enabled of X`).
 */
export function queryNameClashes(
  model: SchemaRoot,
  op: Pick<Operation, 'parameters'>,
): Map<string, Map<string, string[]>> {
  // Asked per request sent (the suite's serialiser): computed once per operation.
  const known = cache.get(op);
  if (known) return known;
  const found = clashesOf(model, op);
  cache.set(op, found);
  return found;
}

const cache = new WeakMap<object, Map<string, Map<string, string[]>>>();

function clashesOf(
  model: SchemaRoot,
  op: Pick<Operation, 'parameters'>,
): Map<string, Map<string, string[]>> {
  const claims = new Map<string, string[]>();
  const claim = (name: string, who: string) => claims.set(name, [...(claims.get(name) ?? []), who]);
  const objects = op.parameters.query.filter((p) => isExplodedQueryObject(model, p));
  for (const p of op.parameters.query) claim(p.name, `query parameter ${p.name}`);
  for (const p of objects)
    for (const name of ownProperties(model, p).keys())
      claim(name, `property ${name} of query parameter ${p.name}`);
  const out = new Map<string, Map<string, string[]>>();
  for (const p of objects) {
    for (const name of ownProperties(model, p).keys()) {
      const self = `property ${name} of query parameter ${p.name}`;
      const others = (claims.get(name) ?? []).filter((who) => who !== self);
      if (others.length === 0) continue;
      out.set(p.name, (out.get(p.name) ?? new Map<string, string[]>()).set(name, others));
    }
  }
  return out;
}

/**
 * What the suite leaves out of each exploded query object's value: the clashing properties above,
 * and, for a free-form object (`type: object`, no properties: openEHR's `query_parameters`), any
 * key another query parameter of the operation names. The server reads such a name as that
 * parameter's, never the object's (param-styles.ts); sent, it was that parameter written twice
 * (`ehr_id` in the object's example beside the `ehr_id` parameter: read back as a list, refused).
 */
export function unsentQueryNames(
  model: SchemaRoot,
  op: Pick<Operation, 'parameters'>,
): Map<string, Map<string, string[]>> {
  const known = unsentCache.get(op);
  if (known) return known;
  const out = new Map(queryNameClashes(model, op));
  for (const p of op.parameters.query) {
    const free =
      p.mediaType === undefined &&
      p.style === 'form' &&
      p.explode &&
      ownProperties(model, p).size === 0;
    if (!free) continue;
    const others = op.parameters.query.filter((q) => q !== p);
    if (others.length > 0)
      out.set(p.name, new Map(others.map((q) => [q.name, [`query parameter ${q.name}`]])));
  }
  unsentCache.set(op, out);
  return out;
}

const unsentCache = new WeakMap<object, Map<string, Map<string, string[]>>>();

/** An exploded object's value without the properties it cannot send (see above); others as they are. */
export function withoutClashes(
  value: unknown,
  clashing: ReadonlyMap<string, unknown> | undefined,
): unknown {
  if (!clashing || typeof value !== 'object' || value === null || Array.isArray(value))
    return value;
  const kept = Object.entries(value).filter(([k]) => !clashing.has(k));
  return kept.length === Object.keys(value).length ? value : Object.fromEntries(kept);
}

/**
 * The schema a required query object written pair by pair (form exploded, or deepObject) is
 * drawn from: one property at least. `{}` writes no pair, so it reads as no object at all and a
 * valid request was refused as missing it (SQS's `Attribute` and SNS's `Attributes` maps,
 * required; Invoice Ninja's free-form object).
 */
export function drawnParameterSchema(model: SchemaRoot, p: Parameter): JsonSchema {
  const pairwise =
    p.in === 'query' &&
    p.mediaType === undefined &&
    ((p.style === 'form' && p.explode) || p.style === 'deepObject');
  if (!p.required || !pairwise) return p.schema;
  const s = deref(model, p.schema);
  if (typeof s !== 'object' || s === null) return p.schema;
  const object = s.type === 'object' || (s.type === undefined && typeof s.properties === 'object');
  const closed = s.additionalProperties === false && ownProperties(model, p).size === 0;
  if (!object || closed || (typeof s.minProperties === 'number' && s.minProperties >= 1))
    return p.schema;
  return { ...s, minProperties: 1 };
}
