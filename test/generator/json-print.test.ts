/**
 * The JSON printer gives exactly prettier's bytes (it replaces prettier for generated JSON, which
 * was the slowest and most memory-hungry step on large descriptions).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { printJson } from '../../generator/emit/json-print.ts';
import { OAS_EXAMPLES, ROOT } from './helpers.ts';

const options = {
  parser: 'json',
  printWidth: 100,
  singleQuote: true,
  trailingComma: 'all',
} as const;
const same = async (value: unknown) => {
  const ours = printJson(value, prettier.util.getStringWidth);
  expect(await prettier.format(ours, options)).toBe(ours);
  expect(JSON.parse(ours)).toEqual(value);
};

describe('printJson', () => {
  it('matches prettier on the layout rules: flat arrays that fit, breaks, fills, wide text', async () => {
    await same({
      short: [1, 2, 3],
      strings: ['x', 'y'],
      empty: [{}, [], {}],
      objects: [{ k: 1 }, { k: 2 }],
      pairs: [
        [1, 'asc'],
        [2, 'desc'],
      ],
      single: [[1, 2]],
      numbers: Array.from({ length: 70 }, (_, i) => i * 997 - 3.5),
      exponent: [1e21, 1e-7, -2.5e-8],
      edge: ['a'.repeat(84)],
      over: ['a'.repeat(85)],
      wide: ['招生章程招生章程招生章程招生章程招生章程招生章程招生章程招生章程招生章', 'b'],
      hostile: ['*/', '`${x}`', '\u2028', '</script>', '"\\', '\u0000'],
      nested: { deeper: { deepest: [{ a: [true, false, null] }] } },
    });
  });

  it('matches prettier on the service model and on real third-party descriptions', async () => {
    await same(JSON.parse(await readFile(path.join(ROOT, 'generated/model.json'), 'utf8')));
    for (const f of [
      '3.0/json/petstore-expanded.json',
      '3.0/json/star-trek.json',
      '3.1/json/petstore.json',
    ])
      await same(JSON.parse(await readFile(path.join(OAS_EXAMPLES, f), 'utf8')));
  });
});
