/**
 * The compiler loaded from V8's code cache (generator/speed/compiler-cache.mjs): the first load
 * compiles it and keeps its code after use, the next loads read that code (V8 accepts it), a
 * deeper use writes deeper code, and bad cached data is refused by V8 and the compiler compiled
 * from source again. Each load runs in a fresh process, on a copy of the compiler in a project
 * folder of the test's own (the cache goes beside the compiler, in its node_modules/.cache).
 */
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, ROOT, run, scratch } from './helpers.ts';

let project: string;
let v8: string;

interface Load {
  from: 'none' | 'parse' | 'check';
  base: string;
  printed: string;
  diagnostics: number;
  version: string;
  viaRequire: boolean;
}

async function load(depth: 'parse' | 'check'): Promise<Load> {
  const child = await run(process.execPath, [
    'test/generator/compiler-cache-child.mjs',
    project,
    depth,
  ]);
  expect(child.code, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as Load;
}

beforeAll(async () => {
  project = await scratch('compiler-cache', true);
  const lib = path.join(project, 'node_modules/typescript/lib');
  await mkdir(lib, { recursive: true });
  const real = path.join(ROOT, 'node_modules/typescript');
  await copyFile(path.join(real, 'package.json'), path.join(lib, '../package.json'));
  await copyFile(path.join(real, 'lib/typescript.js'), path.join(lib, 'typescript.js'));
  v8 = path.join(project, 'node_modules/.cache/dataapi/v8');
});
afterAll(() => cleanup(project));

describe("the compiler from V8's code cache", () => {
  it('compiles it the first time, then loads the code kept after use, deeper when used deeper', async () => {
    const first = await load('parse');
    expect(first).toMatchObject({ from: 'none', viaRequire: true, diagnostics: -1 });
    expect(first.printed).toBe('export const a: number = 1;\n');
    expect(first.base.startsWith(v8)).toBe(true);
    expect(readdirSync(v8).filter((f) => f.endsWith('.bin'))).toEqual([
      `${path.basename(first.base)}-parse.bin`,
    ]);

    const second = await load('parse');
    expect(second).toMatchObject({ from: 'parse', base: first.base, viaRequire: true });
    expect(second.printed).toBe(first.printed);
    // Used deeper (a type-check): deeper code kept, and read from then on.
    const checked = await load('check');
    expect(checked).toMatchObject({ from: 'parse', diagnostics: 0 });
    expect(existsSync(`${first.base}-check.bin`)).toBe(true);
    expect(await load('parse')).toMatchObject({ from: 'check', viaRequire: true });
  });

  it('compiles from source when V8 refuses the cached data, and keeps good data again', async () => {
    const { base } = await load('check');
    // Same length, other bytes: V8's own check refuses it.
    await writeFile(`${base}-check.bin`, Buffer.alloc(4096, 7));
    const refused = await load('check');
    expect(refused).toMatchObject({ from: 'none', viaRequire: true, diagnostics: 0 });
    expect(refused.printed).toBe('export const a: number = 1;\n');
    expect(await load('parse')).toMatchObject({ from: 'check' });
  });

  it('keeps the 8 files used or written last', async () => {
    const { base } = await load('parse');
    // Files of other compilers, Node versions or flags, used long ago.
    const old = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 9; i++) {
      const file = path.join(v8, `typescript-other${i}-parse.bin`);
      await writeFile(file, 'x');
      await utimes(file, old, old);
    }
    await rm(`${base}-check.bin`); // the next load that type-checks writes it again, and prunes
    expect(await load('check')).toMatchObject({ from: 'parse' });
    const left = readdirSync(v8).filter((f) => f.endsWith('.bin'));
    expect(left).toHaveLength(8);
    expect(left).toContain(`${path.basename(base)}-parse.bin`);
    expect(left).toContain(`${path.basename(base)}-check.bin`);
  });
});
