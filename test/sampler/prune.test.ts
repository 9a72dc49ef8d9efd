/**
 * A schema part no value satisfies (a `oneOf` whose options overlap, as Box's event `source`:
 * one option takes any object) is left out where it is optional, so the draw is still a valid
 * value; where it is required, the draw says it found none.
 */
import { describe, expect, it } from 'vitest';
import { draw } from 'dataapi/runtime/sampler';
import { validatorFor } from 'dataapi/runtime/shared';
import { ref, tinyModel } from './helpers.ts';

const model = tinyModel({
  File: { type: 'object', description: 'a file' },
  Generic: { type: 'object', additionalProperties: { description: 'anything' } },
  // Both options take any object: no value fits exactly one.
  Source: { type: 'object', oneOf: [ref('File'), ref('Generic')] },
  Event: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', minLength: 3 }, source: ref('Source') },
  },
  Events: {
    type: 'object',
    required: ['entries'],
    properties: { entries: { type: 'array', minItems: 1, items: ref('Event') } },
  },
  Strict: {
    type: 'object',
    required: ['source'],
    properties: { source: ref('Source') },
  },
});

describe('draws of schemas with parts no value satisfies', () => {
  it('leaves an optional unsatisfiable property out and keeps the rest', () => {
    const check = validatorFor(model).compile(ref('Events'));
    for (let seed = 1; seed <= 5; seed++) {
      const d = draw(model, ref('Events'), { seed });
      expect(d.valid, JSON.stringify(d)).toBe(true);
      expect(check(d.value), JSON.stringify(check.errors)).toBe(true);
      const entries = (d.value as { entries: Record<string, unknown>[] }).entries;
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) expect(e).not.toHaveProperty('source');
    }
  });

  it('says so when the unsatisfiable part is required', () => {
    const d = draw(model, ref('Strict'));
    expect(d.valid).toBe(false);
    expect(d.errors.join('\n')).toMatch(/oneOf|source/);
  });
});
