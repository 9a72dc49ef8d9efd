/** Resolving the model's `$ref`s (`urn:dataapi:spec#/$defs/...`) for code that walks schemas. */
import { splitPointer } from './pointer.ts';
import type { JsonSchema, ServiceModel } from './types.ts';

export function resolveRef(model: ServiceModel, ref: string): JsonSchema | undefined {
  const hash = ref.indexOf('#');
  if (hash < 0) return undefined;
  let node: unknown = model.schemaRoot;
  for (const key of splitPointer(ref.slice(hash + 1))) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' || typeof node === 'boolean' ? (node as JsonSchema) : undefined;
}

/** Follows `$ref` chains (bounded) to the schema that says something. */
export function deref(model: ServiceModel, schema: JsonSchema | undefined): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; i < 32 && typeof s === 'object' && typeof s.$ref === 'string'; i++) {
    s = resolveRef(model, s.$ref);
  }
  return s;
}

/** Object properties of a schema, following `$ref` and `allOf`. */
export function propertiesOf(
  model: ServiceModel,
  schema: JsonSchema | undefined,
): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  const visit = (node: JsonSchema | undefined, depth: number) => {
    const s = deref(model, node);
    if (typeof s !== 'object' || depth > 8) return;
    const props = s.properties;
    if (typeof props === 'object' && props !== null) {
      for (const [k, v] of Object.entries(props)) if (!out.has(k)) out.set(k, v as JsonSchema);
    }
    if (Array.isArray(s.allOf)) for (const sub of s.allOf) visit(sub as JsonSchema, depth + 1);
  };
  visit(schema, 0);
  return out;
}

/** Whether a schema (after `$ref`) is of type array. */
export function isArraySchema(model: ServiceModel, schema: JsonSchema | undefined): boolean {
  const s = deref(model, schema);
  if (typeof s !== 'object') return false;
  return s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'));
}
