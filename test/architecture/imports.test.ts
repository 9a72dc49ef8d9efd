// scripts/check-imports.js, the layering rule `npm test` runs first: this repository passes it, and
// a planted cycle or an import against the layers' direction makes it fail, type-only imports and
// the package's own `dataapi/...` specifiers included.
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { workDir } from '../work.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/check-imports.js');
const run = promisify(execFile);

async function check(root: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, root]);
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A miniature repository with this one's package name, exports and compiler options. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = workDir('imports');
  made.push(root);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'dataapi',
      type: 'module',
      exports: { './model': './model/index.ts', './runtime/*': './runtime/*/index.ts' },
    }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        allowImportingTsExtensions: true,
        noEmit: true,
      },
    }),
    'model/index.ts': 'export type Id = string;\n',
    'runtime/shared/index.ts':
      "import type { Id } from 'dataapi/model';\nexport const id: Id = 'a';\n",
    'generator/normalise.ts': "import type { Id } from '../model/index.ts';\nexport type N = Id;\n",
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  return root;
}

describe('check-imports', () => {
  it('passes on this repository', async () => {
    const { code, out } = await check(ROOT);
    expect(out).toMatch(/imports flow one way, no cycles/);
    expect(code).toBe(0);
  });

  it('passes on a tree that keeps the rules', async () => {
    expect((await check(await tree({}))).code).toBe(0);
  });

  it('fails on a cycle made of type-only imports', async () => {
    const { code, out } = await check(
      await tree({
        'generator/a.ts': "import type { B } from './b.ts';\nexport type A = { b?: B };\n",
        'generator/b.ts': "import type { A } from './a.ts';\nexport type B = { a?: A };\n",
      }),
    );
    expect(code).toBe(1);
    expect(out).toContain('import cycle: generator/a.ts -> generator/b.ts -> generator/a.ts');
  });

  it('fails on a cycle through a dynamic import()', async () => {
    const { code, out } = await check(
      await tree({
        'generator/a.ts': "export const a = () => import('./b.ts');\n",
        'generator/b.ts': "import { a } from './a.ts';\nexport const b = a;\n",
      }),
    );
    expect(code).toBe(1);
    expect(out).toMatch(/import cycle: generator\/a\.ts -> generator\/b\.ts/);
  });

  it('fails when runtime imports the generator', async () => {
    const { code, out } = await check(
      await tree({
        'runtime/mock/index.ts':
          "import type { N } from '../../generator/normalise.ts';\nexport type M = N;\n",
      }),
    );
    expect(code).toBe(1);
    expect(out).toContain(
      'runtime/mock/index.ts imports generator/normalise.ts (runtime/ must not import generator/)',
    );
  });

  it('fails when the model imports a layer above it through the package name', async () => {
    const { code, out } = await check(
      await tree({
        'model/index.ts':
          "import type { id } from 'dataapi/runtime/shared';\nexport type Id = string;\nexport type X = typeof id;\n",
      }),
    );
    expect(code).toBe(1);
    expect(out).toContain(
      'model/index.ts imports runtime/shared/index.ts (model/ must not import runtime/)',
    );
    expect(out).toMatch(
      /import cycle: model\/index\.ts -> runtime\/shared\/index\.ts -> model\/index\.ts/,
    );
  });
});
