/** What JSON types a schema admits, for code that must decode text into values (parameters, form fields). */
import type { JsonSchema, Parameter, ServiceModel } from 'dataapi/model';
import { atLocation, deref } from 'dataapi/model';

/** The JSON types a schema admits (after `$ref`, over `allOf` members), for decoding. */
export function typesOf(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  depth = 0,
): Set<string> {
  const out = new Set<string>();
  const s = deref(model, schema);
  if (typeof s !== 'object' || depth > 8) return out;
  if (typeof s.type === 'string') out.add(s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) out.add(String(t));
  else if (typeof s.properties === 'object') out.add('object');
  // An untyped schema with `items` (PeerTube's `uuids`) is a list as one with properties is an object.
  else if (typeof s.items === 'object' && s.items !== null) out.add('array');
  for (const k of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(s[k]))
      for (const sub of s[k] as JsonSchema[])
        for (const t of typesOf(model, sub, depth + 1)) out.add(t);
  return out;
}

/** A list by its `items` alone (no `type`): Ajv does not coerce one value into it. */
export function untypedList(model: ServiceModel, schema: JsonSchema | undefined): boolean {
  const s = deref(model, schema);
  return typeof s === 'object' && s !== null && s.type === undefined && typeof s.items === 'object';
}

export function itemsOf(model: ServiceModel, schema: JsonSchema): JsonSchema | undefined {
  const s = deref(model, schema);
  return typeof s === 'object' && typeof s.items === 'object' ? (s.items as JsonSchema) : undefined;
}

/**
 * The first `items` (or `additionalProperties`) schema of a schema or of its `allOf`/`anyOf`/
 * `oneOf` branches (Stripe's `anyOf: [{type: array, items}, {enum: ['']}]`): what a value read
 * from text is shaped by where the schema itself names none.
 */
export function branchSchema(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  key: 'items' | 'additionalProperties',
  depth = 0,
): JsonSchema | undefined {
  const s = deref(model, schema);
  if (typeof s !== 'object' || depth > 8) return undefined;
  if (typeof s[key] === 'object' && s[key] !== null) return s[key] as JsonSchema;
  for (const k of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(s[k]))
      for (const sub of s[k] as JsonSchema[]) {
        const found = branchSchema(model, sub, key, depth + 1);
        if (found) return found;
      }
  return undefined;
}

/** Objects and arrays: values that text carries as JSON where no style applies. */
export const complex = (types: Set<string>) => types.has('object') || types.has('array');

/** Whether a form field of this schema carries JSON text (OpenAPI's default for objects and lists of them). */
export function isJsonField(model: ServiceModel, schema: JsonSchema): boolean {
  const types = typesOf(model, schema);
  if (types.has('object')) return true;
  const items = types.has('array') ? itemsOf(model, schema) : undefined;
  return items !== undefined && complex(typesOf(model, items));
}

/**
 * Whether a query or header parameter's value is JSON text (`content: application/json`, or a
 * list of objects, which no style can express): once parsed it is typed JSON, validated as it
 * is (coercing it as text would let `"a"` pass for `["a"]` and break `oneOf`s).
 */
export function carriesJson(model: ServiceModel, p: Parameter): boolean {
  const json = (q: Parameter) => {
    if (q.mediaType !== undefined) return /json/i.test(q.mediaType);
    const items = typesOf(model, q.schema).has('array') ? itemsOf(model, q.schema) : undefined;
    return items !== undefined && complex(typesOf(model, items));
  };
  return atLocation(p, { path: () => false, query: json, header: json, cookie: () => false });
}
