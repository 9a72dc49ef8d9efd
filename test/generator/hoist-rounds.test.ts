/**
 * Deep `$ref`s are hoisted to a fixed point, however many there are and however deeply they nest
 * (issue 26, class 1: hoisting stopped after 20 rounds and types.ts did not compile), and a types.ts
 * with an indexed access deeper than a component is type-checked, its first errors named.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { renderTypes, typeErrors } from '../../generator/emit/typescript-side.mjs';
import { FIXTURES, typesErrors } from './helpers.ts';

const SPEC = path.join(FIXTURES, 'generality/deep-refs.yaml');
const ENCODED = path.join(FIXTURES, 'generality/deep-refs-encoded.yaml');

describe('deep $ref hoisting', () => {
  it('leaves no $ref deeper than a component, past 20 targets and 20 levels of nesting', async () => {
    const spec = await loadSpec(SPEC);
    const text = JSON.stringify(spec.document);
    expect(text).not.toMatch(/"\$ref":"#\/components\/schemas\/[^"]+\//);
    // The deepest target moved whole: its home still holds the innermost level.
    const paths = spec.document['paths'] as Record<string, any>;
    const ref = paths['/deep24'].get.responses['200'].content['application/json'].schema.$ref;
    const name = decodeURIComponent(ref.split('/').pop());
    const schemas = (spec.document['components'] as any).schemas;
    expect(Object.keys(schemas[name].properties)).toEqual(['level24']);
    const wide = paths['/wide23'].get.responses['200'].content['application/json'].schema.$ref;
    expect(schemas[wide.split('/').pop()].properties).toHaveProperty('v23');
  });

  it('gives a types.ts that type-checks', async () => {
    const spec = await loadSpec(SPEC);
    const types = await renderTypes(spec.document);
    expect(types).not.toMatch(/components\["schemas"\]\["[^"]+"\]\[/);
    expect(typeErrors({ path: 'types.ts', content: types })).toBeUndefined();
  });
});

describe('deep $refs in the percent-encoded fragment form', () => {
  it('are hoisted too, nested ones and encoded inner keys included (corpus: brex.io)', async () => {
    const spec = await loadSpec(ENCODED);
    const text = JSON.stringify(spec.document);
    expect(text).not.toMatch(/"\$ref":"#\/paths/);
    const paths = spec.document['paths'] as Record<string, any>;
    const props =
      paths['/events'].get.responses['200'].content['application/json'].schema.properties;
    const schemas = (spec.document['components'] as any).schemas;
    const at = (p: string) => schemas[decodeURIComponent(props[p].$ref.split('/').pop())];
    expect(at('at')).toEqual({ type: 'string', format: 'date-time' });
    expect(at('thing').properties.owner).toEqual(props.owner);
    expect(at('share')).toEqual({ type: 'number' });
    const types = await renderTypes(spec.document);
    expect(await typesErrors(types)).toEqual([]);
  });
});

describe("the check of generate's own types.ts", () => {
  it('names the file and the first errors when an indexed access does not compile', () => {
    const content = [
      'export interface components { schemas: { A: { b?: { c?: string } } } }',
      'export type X = components["schemas"]["A"]["b"]["c"];',
    ].join('\n');
    const errors = typeErrors({ path: 'types.ts', content });
    expect(errors).toMatch(/^emitted types\.ts does not type-check \(1 errors\):/);
    expect(errors).toMatch(/types\.ts\(2,\d+\): error TS2339: Property 'c' does not exist/);
  });

  it('checks each types.ts on its own, with the one library parse tree they share', () => {
    // The library (lib.es5.d.ts) is parsed once per thread: a later check still finds its types
    // and its own errors, and an earlier file's declarations do not leak into it.
    const uses = (body: string) => typeErrors({ path: 'types.ts', content: body });
    expect(uses('export type P = Partial<{ a: string }>;\nexport interface Q { q: 1 }')).toBe(
      undefined,
    );
    expect(uses('export type R = Readonly<Q>;')).toMatch(/error TS2304: Cannot find name 'Q'/);
    expect(uses('export type S = Pick<{ a: 1; b: 2 }, "a">;')).toBe(undefined);
    expect(uses('export type T = NoSuchGlobal<1>;')).toMatch(/error TS2304/);
  });

  it('lets a deep indexed access that compiles through', () => {
    const content = [
      'export interface components { schemas: { A: { b: { c?: string[] } } } }',
      'export type X = components["schemas"]["A"]["b"]["c"];',
      'export type Y = Record<string, Omit<X, never>>;',
    ].join('\n');
    expect(typeErrors({ path: 'types.ts', content })).toBeUndefined();
  });
});
