/**
 * excerpt() writes only the start of a large value's JSON: what it gives must be what cutting
 * JSON.stringify's whole text gives, for every kind of value.
 */
import { describe, expect, it } from 'vitest';
import { excerpt } from '../../model/text.ts';

/** The definition excerpt() keeps to: the whole text, cut. */
function cutWhole(value: unknown, max: number): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

describe('excerpt', () => {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const leaves = [null, true, 1.5, 'x\n"y', -0, 1e21, '', NaN, 'é😀'];
  const value = (depth: number): unknown => {
    const r = random();
    if (depth > 3 || r < 0.3) return leaves[Math.floor(random() * leaves.length)];
    const n = Math.floor(random() * 5);
    if (r < 0.6) return Array.from({ length: n }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}"`, value(depth + 1)]));
  };

  it('gives the start of JSON.stringify for plain data, cut where the whole text is', () => {
    for (let i = 0; i < 3000; i++) {
      const v = value(0);
      for (const max of [5, 20, 120]) expect(excerpt(v, max)).toBe(cutWhole(v, max));
    }
  });

  it('falls back to the whole text for values JSON.parse never makes', () => {
    // eslint-disable-next-line no-sparse-arrays
    const odd = [
      undefined,
      new Date(0),
      { toJSON: () => 1 },
      [undefined, () => 1],
      { a: undefined },
      [, 1],
    ];
    for (const v of odd) for (const max of [3, 50]) expect(excerpt(v, max)).toBe(cutWhole(v, max));
  });

  it('reads no more of a large list than the excerpt needs', () => {
    let read = 0;
    const big = Array.from({ length: 100_000 }, (_, i) => ({
      get id() {
        read++;
        return i;
      },
    }));
    expect(excerpt(big, 50)).toBe(cutWhole(big.slice(0, 10), 50));
    // The first few items and the whole-text comparison above; never the 100,000.
    expect(read).toBeLessThan(100);
  });
});
