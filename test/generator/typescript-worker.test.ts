/**
 * `typescriptWorker: false` (GenerateOptions): the TypeScript side runs on the calling thread,
 * where the TypeScript the first run loads serves the later ones, and the output is the worker's
 * byte for byte, the type-check's verdict included.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, OAS_EXAMPLES, readAll, run, scratch } from './helpers.ts';

const SPEC = path.join(OAS_EXAMPLES, '3.0/json/petstore.json');
let base: string;

beforeAll(async () => {
  base = await scratch('typescript-worker', true);
});
afterAll(() => cleanup(base));

describe('the TypeScript side on the calling thread', () => {
  it('writes what the worker writes, and loads TypeScript here instead', async () => {
    // In a fresh process (typescript-worker-child.ts): this one may hold TypeScript already.
    const worker = path.join(base, 'worker');
    const here = path.join(base, 'here');
    const child = await run(process.execPath, [
      '--import',
      'tsx',
      'test/generator/typescript-worker-child.ts',
      SPEC,
      worker,
      here,
    ]);
    expect(child.code, child.stderr).toBe(0);
    const seen = JSON.parse(child.stdout.trim().split('\n').pop()!) as {
      before: boolean;
      afterWorker: boolean;
      afterHere: boolean;
      typechecked: [string, string];
    };
    // The worker's TypeScript is its own; without the worker it is loaded here.
    expect(seen).toMatchObject({ before: false, afterWorker: false, afterHere: true });
    expect(seen.typechecked).toEqual(['checked', 'checked']);
    expect(await readAll(here)).toEqual(await readAll(worker));
  });
});
