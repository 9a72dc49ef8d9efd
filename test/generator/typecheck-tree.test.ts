/**
 * Generation fails when its own output does not type-check (issue 26): the whole tree is checked
 * in memory before anything is written, and the error names the file and the first errors. The
 * fault is planted in a copy of the templates, as a template bug would put it there. Each full
 * check costs seconds: the tests below run as few as the claims need.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, GeneratedCodeError } from '../../generator/generate.ts';
import { treeTypeErrors } from '../../generator/emit/typecheck-tree.mjs';
import { cleanup, cli, FIXTURES, ROOT, scratch } from './helpers.ts';

const SPEC = path.join(FIXTURES, 'third-party/museum.yaml');
let dir: string;
let templates: string;

beforeAll(async () => {
  dir = await scratch('typecheck-tree', true);
  templates = path.join(dir, 'templates');
  await cp(path.join(ROOT, 'templates'), templates, { recursive: true });
  const client = path.join(templates, 'client/index.ts.hbs');
  // Parses, formats, and does not type-check: only a type-check finds it.
  const planted = "\nexport const planted: number = 'not a number';\n";
  await writeFile(client, (await readFile(client, 'utf8')) + planted);
});

afterAll(() => cleanup(dir));

describe('the type-check of the generated tree', () => {
  it("passes the toolkit's templates outside any project, is not run again on the same tree, and fails a changed one with the file and the first error, writing nothing", async () => {
    const clean = path.join(dir, 'clean-templates');
    await cp(path.join(ROOT, 'templates'), clean, { recursive: true });
    // Outside any project: package imports resolve from the toolkit's folder, not from where the
    // tree goes.
    const outside = await mkdtemp(path.join(os.tmpdir(), 'dataapi-typecheck-'));
    try {
      const out = path.join(outside, 'api');
      const run = () => generate({ spec: SPEC, out, templatesDir: clean, force: true });
      const first = await run();
      expect(first.typechecked).toBe('checked');
      expect(first.written.length).toBeGreaterThan(5);
      expect((await run()).typechecked).toBe('cached');
      // The command (the toolkit's templates: the same text as this copy's so far) says so.
      const again = await cli('generate', '--spec', SPEC, '--out', out, '--force');
      expect(again.stdout).toMatch(/in [\d.]+s; type-check not repeated \(same tree\)\n$/);
      // A fault planted as a template bug would put it: the tree differs from the one that
      // checked, so it is checked, and it fails.
      const client = path.join(clean, 'client/index.ts.hbs');
      const planted = "\nexport const planted: number = 'not a number';\n";
      await writeFile(client, (await readFile(client, 'utf8')) + planted);
      const failed = run();
      await expect(failed).rejects.toBeInstanceOf(GeneratedCodeError);
      const message = await failed.catch((e: Error) => e.message);
      expect(message).toMatch(/^the generated code does not type-check \(1 errors in 1 files/);
      expect(message).toMatch(
        /client\/index\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      );
      expect(message).toContain("export const planted: number = 'not a number';");
      // Nothing written: the tree that checked is there as it was, and no other folder.
      expect(await readFile(path.join(out, 'client/index.ts'), 'utf8')).not.toContain('planted');
      expect(readdirSync(outside)).toEqual(['api']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("checks types.ts's own types too (the syntax check leaves them to it)", () => {
    // A type error inside types.ts that no other file's use of it reaches.
    const types = 'export interface components {\n  a: { b: Missing };\n}\n';
    const client = "import type { components } from '../types.js';\nexport type C = components;\n";
    const files = [
      { path: 'types.ts', content: types },
      { path: 'client/index.ts', content: client },
    ];
    const errors = treeTypeErrors(files, {
      outDir: path.join(dir, 'types-only'),
      projectRoot: ROOT,
    });
    expect(errors).toMatch(/^the generated code does not type-check \(1 errors in 1 files/);
    expect(errors).toMatch(/types\.ts\(2,\d+\): error TS2304: Cannot find name 'Missing'/);
  });

  it('is skipped with typecheck: false (the syntax check stays)', async () => {
    const out = path.join(dir, 'unchecked');
    await generate({ spec: SPEC, out, templatesDir: templates, force: true, typecheck: false });
    expect(await readFile(path.join(out, 'client/index.ts'), 'utf8')).toContain('planted');
  });

  it('is documented in the help with its opt-out', async () => {
    const help = await cli('generate', '--help');
    expect(help.stdout + help.stderr).toMatch(/--no-typecheck\s+skip the type-check/);
  });
});
