/**
 * Deterministic draws from the sampler's arbitraries: the same model, schema, options and seed
 * give the same value, byte for byte. A draw is validated with the model's Ajv; when it does not
 * validate (a pattern fast-check cannot express, `not`, `if`, contradictory parts) further seeds
 * are tried, first with the schema's examples, then without; then the last one is pruned.
 */
import fc from 'fast-check';
import type { JsonSchema, ServiceModel } from 'dataapi/model';
import { describeErrors, directionalErrors, validatorFor } from '../shared/index.ts';
import { arbitraryOf, type ArbitraryOptions } from './arbitrary.ts';
import { effective } from './effective.ts';
import { prune } from './prune.ts';

export interface DrawOptions extends ArbitraryOptions {
  /** Seed of the draw (default 1). */
  seed?: number;
  /** Draws tried before giving up (default 12). */
  attempts?: number;
}

export interface Draw {
  value: unknown;
  /** Whether the value validates against the schema (for a request: readOnly fields aside). */
  valid: boolean;
  /** Why no valid value was found (Ajv errors of the last draw), when `valid` is false. */
  errors: string[];
}

/** One value for a schema, drawn with a fixed seed and checked against the schema. */
export function draw(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  options: DrawOptions = {},
): Draw {
  if (schema === undefined) return { value: null, valid: true, errors: [] };
  const validate = validatorFor(model).compileFor(schema, options.direction ?? 'response');
  const seed = options.seed ?? 1;
  const attempts = Math.max(1, options.attempts ?? 12);
  const readOnlyMissing =
    options.direction === 'request' ? readOnlyNames(model, schema) : new Set<string>();
  let last: unknown = null;
  let errors: string[] = [];
  for (let i = 0; i < attempts; i++) {
    // The first half of the attempts takes the schema's examples; the rest generates.
    const preferExamples = (options.preferExamples ?? true) && i < Math.ceil(attempts / 2);
    let value: unknown;
    try {
      value = fc.sample(arbitraryOf(model, schema, { ...options, preferExamples }), {
        seed: (seed + i * 7919) | 0,
        numRuns: 1,
      })[0];
    } catch (err) {
      errors = [`cannot build a value: ${(err as Error).message}`];
      continue;
    }
    last = value;
    if (validate(value)) return { value, valid: true, errors: [] };
    // `required` as OpenAPI reads it: readOnly binds responses, writeOnly requests.
    const real = directionalErrors(model, validate.errors, options.direction ?? 'response').filter(
      (e) =>
        !(
          e.keyword === 'required' &&
          readOnlyMissing.has(String((e.params as { missingProperty?: string }).missingProperty))
        ),
    );
    if (real.length === 0) return { value, valid: true, errors: [] };
    // Overlapping oneOf options first: the usual reason a description admits no value.
    const ordered = [...real].sort(
      (a, b) => Number(b.keyword === 'oneOf') - Number(a.keyword === 'oneOf'),
    );
    errors = describeErrors(ordered, value);
  }
  // No seed gave a valid value: prune the last one (optional parts no value satisfies).
  const pruned = readOnlyMissing.size === 0 && last !== null ? prune(validate, last) : undefined;
  if (pruned !== undefined) return { value: pruned, valid: true, errors: [] };
  const why = effective(model, schema).impossible;
  return { value: last, valid: false, errors: why ? [why, ...errors] : errors };
}

/** Names of readOnly properties anywhere in the schema (a request leaves them out). */
export function readOnlyNames(model: ServiceModel, schema: JsonSchema): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: JsonSchema | undefined, depth: number) => {
    if (depth > 12 || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const { s, choices } = effective(model, node);
    if (typeof s.properties === 'object' && s.properties !== null)
      for (const [name, sub] of Object.entries(s.properties as Record<string, JsonSchema>)) {
        if (effective(model, sub).s.readOnly === true) names.add(name);
        walk(sub, depth + 1);
      }
    if (typeof s.items === 'object') walk(s.items as JsonSchema, depth + 1);
    for (const c of choices) for (const o of c.options) walk(o, depth + 1);
  };
  walk(schema, 0);
  return names;
}

/** Compatibility with the mock's former sampler: a value, valid where one can be found. */
export function sample(
  model: ServiceModel,
  schema: JsonSchema,
  options: { dynamic?: boolean; seed?: number; direction?: 'request' | 'response' } = {},
): unknown {
  return draw(model, schema, {
    seed: options.seed ?? 1,
    direction: options.direction ?? 'response',
    ...(options.dynamic ? { preferExamples: false, optional: 'random' as const } : {}),
  }).value;
}

/** A stable 32-bit hash of a text (FNV-1a), for per-operation seeds. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
