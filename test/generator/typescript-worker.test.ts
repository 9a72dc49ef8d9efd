/**
 * `typescriptWorker: false` (GenerateOptions): the TypeScript side runs on the calling thread,
 * where the TypeScript the first run loads serves the later ones, and the output is the worker's
 * byte for byte, the type-check's verdict included.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.ts';
import { cleanup, OAS_EXAMPLES, readAll, scratch } from './helpers.ts';

const SPEC = path.join(OAS_EXAMPLES, '3.0/json/petstore.json');
const loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((f) =>
    /[\\/]node_modules[\\/]typescript[\\/]lib[\\/]typescript\.js$/.test(f),
  );
let base: string;

beforeAll(async () => {
  base = await scratch('typescript-worker', true);
});
afterAll(() => cleanup(base));

describe('the TypeScript side on the calling thread', () => {
  it('writes what the worker writes, and loads TypeScript here instead', async () => {
    const inWorker = await generate({ spec: SPEC, out: path.join(base, 'worker'), force: true });
    expect(loaded()).toBe(false); // the worker's TypeScript is its own
    const here = await generate({
      spec: SPEC,
      out: path.join(base, 'here'),
      force: true,
      typescriptWorker: false,
    });
    expect(loaded()).toBe(true);
    expect(here.typechecked).toBe(inWorker.typechecked);
    expect(here.typechecked).toBe('checked');
    expect(await readAll(path.join(base, 'here'))).toEqual(
      await readAll(path.join(base, 'worker')),
    );
  }, 300_000);
});
