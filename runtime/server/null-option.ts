/**
 * A parameter's `type: [T, 'null']` (a 3.0 `nullable: true`) read as `anyOf: [T, null]`: null
 * arrives as an empty text (a query has no null), which a type list takes as the string "" (it is
 * a string already, so Ajv never coerces it) and then refuses for a `minLength` or a `format`.
 * As an `anyOf`, the empty text is null and any other text is read as T, as a parameter that
 * says `anyOf` with a null option is read (validate-views.ts firstFitting). The two are one schema:
 * every other keyword goes into both options, and those that judge a string never judge null.
 */
import { deref, type JsonSchema, type ServiceModel } from 'dataapi/model';

export function nullAsOption(model: ServiceModel, schema: JsonSchema): JsonSchema {
  // Through a bare `$ref` only: siblings beside one would be lost with it.
  const bare = typeof schema === 'object' && schema !== null && Object.keys(schema).length === 1;
  const s =
    typeof schema === 'object' && schema !== null && '$ref' in schema && !bare
      ? schema
      : deref(model, schema);
  if (typeof s !== 'object' || s === null || !Array.isArray(s.type)) return schema;
  const others = (s.type as unknown[]).filter((t) => t !== 'null');
  if (others.length === 0 || others.length === s.type.length) return schema;
  const { type: _type, ...rest } = s;
  return {
    anyOf: [
      { ...rest, type: others.length === 1 ? others[0] : others },
      { ...rest, type: 'null' },
    ],
  } as JsonSchema;
}
