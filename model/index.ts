/**
 * The bottom layer (`dataapi/model`): the IR types of a described service, and what every layer
 * above asks of them. Generator, runtime and contract tests import this; it imports none of them.
 */
export * from './types.ts';
export * from './service-model.ts';
export * from './finding.ts';
export * from './identifiers.ts';
export * from './keywords.ts';
export * from './object.ts';
export * from './pointer.ts';
export * from './refs.ts';
export * from './queries.ts';
export * from './locations.ts';
export * from './media.ts';
export * from './schema.ts';
export * from './text.ts';
// Validation (Ajv) is `dataapi/model/validate`: kept out of this entry so the packed client,
// which imports the model's types and queries, carries no Ajv.
export * from './lifecycle.ts';
export * from './diagnostics.ts';
export * from './query-objects.ts';
