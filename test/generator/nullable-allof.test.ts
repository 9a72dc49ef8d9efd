/**
 * A parent that requires properties of a nullable allOf branch (corpus: plaid.com): types.ts
 * compiles, and the required properties are required in the type.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { renderTypes } from '../../generator/emit/typescript-side.mjs';
import { FIXTURES, typesErrors } from './helpers.ts';

const SPEC = path.join(FIXTURES, 'generality/nullable-allof-required.yaml');

describe('required properties of a nullable allOf branch', () => {
  it('give a types.ts that type-checks and requires them', async () => {
    const types = await renderTypes((await loadSpec(SPEC)).document);
    expect(types).toMatch(/WithRequired<components\["schemas"\]\["Error"\], "code" \| "message">/);
    const use = [
      'const ok: components["schemas"]["Cause"] = { item: "i", code: "c", message: "m" };',
      '// @ts-expect-error code is required',
      'const missing: components["schemas"]["Cause"] = { item: "i", message: "m" };',
      'export { ok, missing };',
    ].join('\n');
    expect(await typesErrors(`${types}\n${use}\n`)).toEqual([]);
  });
});

describe('shapes openapi-typescript cannot type as written', () => {
  it('type null beside branches that refer to it is typed null; an object enum is left out', async () => {
    const file = path.join(FIXTURES, 'generality/null-with-branches.yaml');
    const types = await renderTypes((await loadSpec(file)).document);
    expect(types).toMatch(/Value: null;/);
    expect(types).toMatch(/Group: \{\s+name: string;\s+\};/);
    expect(await typesErrors(types)).toEqual([]);
  });
});
