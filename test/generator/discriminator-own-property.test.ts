/**
 * A schema extending a discriminated one (allOf or anyOf), not in its mapping, that declares the
 * discriminator property itself: types.ts writes that property once, as the schema declares it
 * (corpus, apple.com/sirikit-cloud-media: `Duplicate identifier 'class'`, the implicit
 * `class: "Name"` openapi-typescript adds beside the schema's own `class`).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { renderTypes, typeErrors } from '../../generator/emit/typescript-side.mjs';
import { FIXTURES, typesErrors } from './helpers.ts';

const SPEC = path.join(FIXTURES, 'generality/discriminator-own-property.yaml');

describe('a discriminator property the extending schema declares itself', () => {
  it('gives a types.ts that type-checks, with the property as declared and required', async () => {
    const types = await renderTypes((await loadSpec(SPEC)).document);
    expect(await typesErrors(types)).toEqual([]);
    const destination = /DestinationResult: \{([\s\S]*?)\n\s*\} &/.exec(types)?.[1] ?? '';
    expect(destination.match(/\bclass\??:/g)).toEqual(['class:']);
    expect(destination).toContain('class: "destination";');
    // A mapped schema keeps openapi-typescript's own handling.
    expect(types).toMatch(/ItemResult: \{\s*\/\*\* @enum \{string\} \*\/\s*class\?: "ItemResult";/);
  });

  it('finds the duplicate when there is one (the check can fail)', async () => {
    const errors = await typesErrors('export interface A { class: "A"; class?: "b" }');
    expect(errors[0]).toMatch(/^types\.ts\(1,22\): error TS2300: Duplicate identifier 'class'/);
  });

  it("is refused by generate's own check of types.ts, deep indexed access or not", () => {
    const content =
      'export interface components { schemas: { A: { class: "A"; kind: string; class?: "b" } } }\n';
    expect(typeErrors({ path: 'types.ts', content })).toMatch(/Duplicate identifier 'class'/);
  });
});
