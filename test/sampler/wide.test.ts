/**
 * The sampler's wide range (fuzzing): strings up to their declared maximum length and at it, with
 * separators and other Unicode, ASCII only where a header carries them; numbers at their bounds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf } from 'dataapi/runtime/sampler';
import { tinyModel } from './helpers.ts';

const model = tinyModel({});
const wide = { preferExamples: false, range: 'wide' } as const;
const draws = <T>(arb: fc.Arbitrary<T>, n = 300) => fc.sample(arb, { seed: 7, numRuns: n });

describe('wide strings', () => {
  it('reach the declared maximum length, carry separators and other Unicode, never exceed it', () => {
    const values = draws(arbitraryOf(model, { type: 'string', maxLength: 200 }, wide)) as string[];
    const lengths = values.map((v) => [...v].length);
    expect(Math.max(...lengths)).toBe(200);
    expect(lengths.filter((n) => n === 200).length).toBeGreaterThan(2);
    expect(lengths.filter((n) => n <= 10).length).toBeGreaterThan(100);
    expect(values.some((v) => v.includes(','))).toBe(true);
    expect(values.some((v) => /[^\x20-\x7e]/.test(v))).toBe(true);
  });

  it('stay short without a declared maximum, and within a cap', () => {
    const free = draws(arbitraryOf(model, { type: 'string' }, wide)) as string[];
    expect(Math.max(...free.map((v) => [...v].length))).toBeLessThanOrEqual(64);
    const capped = draws(
      arbitraryOf(model, { type: 'string', maxLength: 5000 }, { ...wide, maxStringLength: 30 }),
    ) as string[];
    expect(Math.max(...capped.map((v) => [...v].length))).toBe(30);
  });

  it('are printable ASCII without spaces at their ends for a header', () => {
    const values = draws(
      arbitraryOf(model, { type: 'string', maxLength: 40 }, { ...wide, ascii: true }),
    ) as string[];
    for (const v of values) expect(v).toMatch(/^(?:[!-~](?:[ -~]*[!-~])?)?$/);
  });
});

describe('wide numbers', () => {
  it('hit their inclusive bounds often', () => {
    const values = draws(
      arbitraryOf(model, { type: 'integer', minimum: 0, maximum: 750 }, wide),
    ) as number[];
    expect(values.filter((v) => v === 750).length).toBeGreaterThan(10);
    expect(values.filter((v) => v === 0).length).toBeGreaterThan(10);
    expect(values.every((v) => v >= 0 && v <= 750)).toBe(true);
    const cents = draws(
      arbitraryOf(model, { type: 'number', minimum: 0.5, maximum: 9.5 }, wide),
    ) as number[];
    expect(cents).toContain(9.5);
    expect(cents).toContain(0.5);
  });
});
