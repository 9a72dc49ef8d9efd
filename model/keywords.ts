/**
 * The JSON Schema keywords that hold schemas, by the shape of their value: one list for every
 * layer that walks a schema (the normaliser converts through them, diff canonicalises through them).
 */

/** A map of name -> schema. */
export const SCHEMA_MAP_KEYWORDS: readonly string[] = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
];

/** One schema: an object, or a boolean (`true` = anything, `false` = nothing). */
export const SCHEMA_KEYWORDS: readonly string[] = [
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];

/** A list of schemas. */
export const SCHEMA_LIST_KEYWORDS: readonly string[] = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
