/**
 * Schema keywords whose value must be of one kind: shared by the normaliser's repairs
 * (schema-repair.ts) and the loader's (load-validate.ts). A module of its own, importing nothing,
 * so that the loader does not import the normaliser.
 */
export const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
export const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
/** Keywords whose value must be of one kind, dropped when it is not (`type` aside: it is mended). */
export const TYPED_KEYWORDS = [
  ...COUNTS,
  ...NUMBERS,
  'enum',
  'required',
  'pattern',
  'multipleOf',
  'format',
  'contentMediaType',
  'contentEncoding',
  'uniqueItems',
];
