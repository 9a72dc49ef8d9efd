/** Resolving the model's `$ref`s (`urn:dataapi:spec#/$defs/...`) for code that walks schemas. */
import { splitPointer } from './pointer.ts';
import type { JsonSchema } from './types.ts';
import type { ServiceModel } from './service-model.ts';

/** What resolving needs of a model: its schema root (a whole ServiceModel will do). */
export type SchemaRoot = Pick<ServiceModel, 'schemaRoot'>;

export function resolveRef(model: SchemaRoot, ref: string): JsonSchema | undefined {
  const hash = ref.indexOf('#');
  if (hash < 0) return undefined;
  let node: unknown = model.schemaRoot;
  for (const key of splitPointer(ref.slice(hash))) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' || typeof node === 'boolean' ? (node as JsonSchema) : undefined;
}

/** Follows `$ref` chains (bounded) to the schema that says something. */
export function deref(model: SchemaRoot, schema: JsonSchema | undefined): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; i < 32 && typeof s === 'object' && typeof s.$ref === 'string'; i++) {
    s = resolveRef(model, s.$ref);
  }
  return s;
}

/**
 * The object properties a schema declares, by name (the first declaration wins): its own, its
 * `$ref` target's and its `allOf` members'; with `alternatives`, its `anyOf` and `oneOf`
 * members' too (every property a value may have, as coverage counts them).
 */
export function propertiesOf(
  model: SchemaRoot,
  schema: JsonSchema | undefined,
  options: { alternatives?: boolean } = {},
): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  const keywords = options.alternatives ? ['allOf', 'anyOf', 'oneOf'] : ['allOf'];
  const visit = (s: JsonSchema | undefined, depth: number) => {
    if (typeof s !== 'object' || depth > 8) return;
    if (typeof s.$ref === 'string') visit(resolveRef(model, s.$ref), depth + 1);
    const props = s.properties;
    if (typeof props === 'object' && props !== null) {
      for (const [k, v] of Object.entries(props)) if (!out.has(k)) out.set(k, v as JsonSchema);
    }
    for (const keyword of keywords) {
      const members = s[keyword];
      if (Array.isArray(members)) for (const sub of members) visit(sub as JsonSchema, depth + 1);
    }
  };
  visit(schema, 0);
  return out;
}

/** Whether a schema (after `$ref`) is of type array. */
export function isArraySchema(model: SchemaRoot, schema: JsonSchema | undefined): boolean {
  const s = deref(model, schema);
  if (typeof s !== 'object') return false;
  return s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'));
}
