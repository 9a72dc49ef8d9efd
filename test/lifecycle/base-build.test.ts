/**
 * `--version auto --base REV` on a revision without dist/: the revision's own scripts/build.js
 * (this toolkit's, as it ships) compiles its sources before its bin/dataapi.js (this toolkit's as
 * well) packs; a build that fails is named. The revision's sources are a toolkit of a few lines
 * whose command line writes down how it was run, so no compile of the whole toolkit is needed
 * to see the steps (pack-version.test.ts runs the real toolkit on a BASE that carries dist/).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basePackage, basePackageKey } from '../../generator/pack/base-package.ts';
import { PackError } from '../../generator/pack/errors.ts';
import { removeWork } from '../work.ts';
import { commitToolkitCopy, gitIn, root, tempDir } from './helpers.ts';

const repo = tempDir('base-build');
const git = (...args: string[]) => gitIn(repo, ...args);

/**
 * The command line of the small toolkit: it records how it ran and packs nothing else. Its file
 * writing is a plain-JavaScript module, which the build copies (no Node types to compile).
 */
const CLI = `import { record } from './record.mjs';
import { LAYER } from '../model/layer.js';

export async function main(args: string[]): Promise<number> {
  const out = args[args.indexOf('--out') + 1] ?? 'nowhere';
  record(out, import.meta, { layer: LAYER, args });
  return 0;
}
`;
const RECORD = `import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function record(out, meta, ran) {
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'ran.json'), JSON.stringify({ module: meta.url, ...ran }));
}
`;

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  writeFileSync(path.join(repo, rel), text);
}

beforeAll(() => {
  for (const rel of ['bin/dataapi.js', 'scripts/build.js'])
    cpSync(path.join(root, rel), path.join(repo, rel));
  write('templates/pack/index.ts.hbs', '');
  write('spec/openapi.yaml', 'openapi: 3.1.0\n');
  write('package.json', JSON.stringify({ name: 'small-toolkit', private: true, type: 'module' }));
  write('tsconfig.json', '{}');
  write(
    'tsconfig.build.json',
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        strict: true,
        lib: ['es2022'],
        types: [],
        rootDir: '.',
        outDir: 'dist',
      },
      include: ['model', 'generator', 'runtime', 'contract-tests', 'scripts'],
      exclude: ['scripts/build.js'],
    }),
  );
  // scripts/build.js reads every layer's folder.
  for (const layer of ['model', 'generator', 'runtime', 'contract-tests'])
    write(`${layer}/layer.ts`, `export const LAYER: string = '${layer}';\n`);
  write('scripts/cli.ts', CLI);
  write('scripts/record.mjs', RECORD);
  write(
    'scripts/record.d.mts',
    'export declare function record(out: string, meta: ImportMeta, ran: object): void;\n',
  );
  // The toolkit runs on this checkout's dependencies (basePackage links them).
  commitToolkitCopy(repo, []);
  write('scripts/cli.ts', `${CLI}export const broken: number = 'not a number';\n`);
  git('commit', '-q', '-am', 'broken');
  git('tag', 'broken');
});
afterAll(() => removeWork(repo));

describe('a BASE without dist/', () => {
  it('is built from its sources by its own scripts/build.js, then packs with its compiled command line', async () => {
    expect(git('ls-tree', '-r', '--name-only', 'a')).not.toMatch(/^dist\//m);
    const base = await basePackage({ base: 'a', spec: 'spec/openapi.yaml', cwd: repo });
    if (!('dir' in base)) throw new Error(`skipped: ${base.skipped}`);
    expect(base.reused).toBe(false);
    try {
      const extracted = path.dirname(base.dir);
      // The build's stamp: scripts/build.js ran to its end.
      expect(existsSync(path.join(extracted, 'dist/.build-stamp'))).toBe(true);
      const ran = JSON.parse(readFileSync(path.join(base.dir, 'ran.json'), 'utf8')) as {
        module: string;
        layer: string;
        args: string[];
      };
      // bin/dataapi.js ran the command line tsc compiled, with the module it imports.
      expect(fileURLToPath(ran.module)).toBe(
        realpathSync(path.join(extracted, 'dist/scripts/cli.js')),
      );
      expect(ran.layer).toBe('model');
      expect(ran.args).toEqual([
        'pack',
        'client',
        '--spec',
        'spec/openapi.yaml',
        '--out',
        '.dataapi-base-package',
        '--version',
        '0.0.0',
      ]);
    } finally {
      await base.cleanup();
    }
    expect(existsSync(base.dir)).toBe(false);

    // Kept: the same BASE again is not extracted, built or packed again.
    const again = await basePackage({ base: 'a', spec: 'spec/openapi.yaml', cwd: repo });
    if (!('dir' in again)) throw new Error(`skipped: ${again.skipped}`);
    expect(again.reused).toBe(true);
    expect(again.dir.startsWith(path.join(repo, 'node_modules/.cache/dataapi/base-package/'))).toBe(
      true,
    );
    expect(JSON.parse(readFileSync(path.join(again.dir, 'ran.json'), 'utf8'))).toMatchObject({
      layer: 'model',
    });
    await again.cleanup();
    expect(existsSync(again.dir)).toBe(true);
  });

  it("keys a kept package by BASE's commit, the description's path and the installed dependencies", () => {
    const key = basePackageKey('c0ffee', 'spec/openapi.yaml', '{"lockfileVersion":3}');
    expect(basePackageKey('c0ffee', 'spec/openapi.yaml', '{"lockfileVersion":3}')).toBe(key);
    for (const other of [
      basePackageKey('c0ffef', 'spec/openapi.yaml', '{"lockfileVersion":3}'),
      basePackageKey('c0ffee', 'spec/other.yaml', '{"lockfileVersion":3}'),
      basePackageKey('c0ffee', 'spec/openapi.yaml', '{"lockfileVersion":2}'),
    ])
      expect(other).not.toBe(key);
  });

  it('names a build that fails, with the compiler message', async () => {
    const failed = basePackage({ base: 'broken', spec: 'spec/openapi.yaml', cwd: repo });
    await expect(failed).rejects.toThrow(PackError);
    await expect(failed).rejects.toThrow(/could not build broken's toolkit: .*error TS2322/s);
  });
});
