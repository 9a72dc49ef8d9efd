/**
 * The bottom layer (`dataapi/model`): the IR types of a described service, and what every layer
 * above asks of them. Generator, runtime and contract tests import this; it imports none of them.
 */
export * from './types.ts';
export * from './identifiers.ts';
export * from './object.ts';
export * from './pointer.ts';
export * from './refs.ts';
export * from './schema.ts';
