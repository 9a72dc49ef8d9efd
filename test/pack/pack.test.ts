/**
 * `dataapi pack client`: the package folder it writes (manifest, exports map, what the
 * JavaScript carries, README), its determinism, and the command's errors (nothing written).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packClient } from '../../generator/pack/index.ts';
import { packageVersion, checkPackageName } from '../../generator/pack/manifest.ts';
import { npmFolderArg } from '../../scripts/commands/pack.ts';
import { npmPack, readTreeBytes, ROOT, run, tempDir } from './helpers.ts';
import { sharedClient, sharedTarball } from './shared-client.ts';

const LONG = 600_000;
const SPEC = path.join(ROOT, 'spec/openapi.yaml');
let work: string;
let out: string;

beforeAll(async () => {
  work = await tempDir('pack');
  // packClient({ spec: SPEC, out }), packed once for this file and consumer.test.ts.
  out = await sharedClient();
}, LONG);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 5 });
});

const read = (rel: string) => readFile(path.join(out, rel), 'utf8');

describe('the package folder', () => {
  it('has a publishable manifest: name, version from info.version, exports, engines, no dependencies', async () => {
    const manifest = JSON.parse(await read('package.json')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: '@dataapi/client',
      version: '3.1.0',
      type: 'module',
      sideEffects: false,
      engines: { node: '>=20' },
      license: 'LicenseRef-Proprietary',
      exports: {
        '.': {
          import: { types: './dist/esm/index.d.ts', default: './dist/esm/index.js' },
          require: { types: './dist/cjs/index.d.cts', default: './dist/cjs/index.cjs' },
        },
      },
    });
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest).not.toHaveProperty('peerDependencies');
    // `types` comes first in each condition (TypeScript takes the first match).
    const exportsMap = manifest['exports'] as Record<string, Record<string, object>>;
    for (const condition of Object.values(exportsMap['.']!))
      expect(Object.keys(condition)[0]).toBe('types');
    for (const target of ['dist/esm/index.js', 'dist/cjs/index.cjs', 'dist/esm/index.d.ts'])
      expect(existsSync(path.join(out, target))).toBe(true);
  });

  it("carries only the client's runtime: no toolkit, Ajv, Fastify, Handlebars or Node built-ins", async () => {
    for (const rel of ['dist/esm/index.js', 'dist/cjs/index.cjs']) {
      const js = await read(rel);
      const imports = [...js.matchAll(/(?:from\s*|require\(|import\()\s*["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect([...new Set(imports)]).toEqual(['#file-path']);
      expect(js).not.toMatch(/ajv|fastify|handlebars|prettier|esbuild|typescript\b/i);
      // Nor Node's Buffer: a browser has none (openapi-fetch's own `process` use is guarded).
      expect(js).not.toMatch(/\bBuffer\.\w/);
      expect(js).toContain('/* @__PURE__ */ bindOperation(');
    }
    // Declarations refer to the package's own files only.
    const tree = await readTreeBytes(out);
    for (const [rel, bytes] of tree) {
      if (!/\.d\.c?ts$/.test(rel)) continue;
      for (const m of bytes.toString('utf8').matchAll(/from '([^']+)'|import\('([^']+)'\)/g))
        expect(m[1] ?? m[2], `${rel}`).toMatch(/^\.\.?\//);
    }
    // Of the model, only its types' declarations: the barrel's would bring the rest of the model
    // and the diagnostics catalogue (111 kB of tarball instead of 96).
    expect([...tree.keys()].filter((rel) => rel.includes('/lib/model/')).sort()).toEqual([
      'dist/cjs/lib/model/types.d.cts',
      'dist/esm/lib/model/types.d.ts',
    ]);
    expect(await read('dist/esm/file-path.browser.js')).not.toMatch(/node:/);
    expect(await read('dist/esm/file-path.node.js')).toMatch(/node:fs/);
  });

  it('has a README from the description: install, createClient, every operation with its facts', async () => {
    const readme = await read('README.md');
    expect(readme).toContain('npm install @dataapi/client');
    expect(readme).toContain('createClient');
    const model = JSON.parse(await readFile(path.join(ROOT, 'generated/model.json'), 'utf8')) as {
      operations: { id: string; method: string; path: string }[];
    };
    for (const op of model.operations) {
      expect(readme).toContain(`### \`${op.id}\``);
      expect(readme).toContain(`\`${op.method.toUpperCase()}\` \`${op.path}\``);
    }
    expect(readme).toContain('- Rate limit: 5 per second (default) and 100 per minute');
    expect(readme).toMatch(/\| `location` \| query \| `string` \| no \|/);
    expect(readme).toMatch(/Business codes: .*`505` Call count exceeded \(`quota_exceeded`\)/);
    expect(readme).toMatch(/Errors: `400` /);
    // What a reader copies works and reads cleanly: a real base URL, the call's required input,
    // Markdown rendered (no escaped backticks), no doubled punctuation, no "seed" citations.
    expect(readme).toContain('baseUrl: "https://api.dataapi.invalid"');
    expect(readme).not.toContain('{base_url}');
    expect(readme).toContain('await api.getAirQuality({ query: { location: "北京" } });');
    expect(readme).toContain('await getAirQuality(caller, { query: { location: "北京" } });');
    expect(readme).not.toContain('\\`');
    expect(readme).toContain('At least one of `location` and `city` must be sent');
    expect(readme).not.toMatch(/\.[;.]|; \n/);
    expect(readme).not.toMatch(/\bseed \d/i);
    expect(await read('LICENSE')).toContain('Proprietary');
    expect(await read('THIRD-PARTY-NOTICES.md')).toContain('openapi-fetch');
  });

  it(
    'is the same bytes, dates included, when packed again',
    async () => {
      const again = path.join(work, 'again');
      await packClient({ spec: SPEC, out: again });
      const a = await readTreeBytes(out);
      const b = await readTreeBytes(again);
      expect([...b.keys()]).toEqual([...a.keys()]);
      for (const [rel, bytes] of a) expect(b.get(rel)?.equals(bytes), rel).toBe(true);
      const stamp = (await stat(path.join(again, 'dist/esm/index.js'))).mtime.toISOString();
      expect(stamp).toBe('1985-10-26T08:15:00.000Z');
      // And npm pack makes the same tarball of both (the first's made once per run).
      await mkdir(path.join(work, 'tgz-b'));
      const first = await sharedTarball();
      const second = await npmPack(again, path.join(work, 'tgz-b'));
      expect((await readFile(second)).equals(await readFile(first))).toBe(true);
    },
    LONG,
  );
});

describe('names and versions', () => {
  it('completes short info.versions and refuses what npm would refuse', () => {
    expect(packageVersion(undefined, '3.1')).toBe('3.1.0');
    expect(packageVersion(undefined, 'v2')).toBe('2.0.0');
    expect(packageVersion(undefined, '1.2.3-beta.1')).toBe('1.2.3-beta.1');
    expect(packageVersion('4.0.0', '3.1')).toBe('4.0.0');
    expect(() => packageVersion(undefined, '2024-01-01')).toThrow(/pass --version/);
    expect(() => packageVersion('1', '3.1')).toThrow(/not a semver version/);
    expect(checkPackageName('@scope/name')).toBe('@scope/name');
    expect(() => checkPackageName('Bad Name')).toThrow(/not a valid npm package name/);
  });
});

describe('dataapi pack (command line)', () => {
  const cli = (args: string[]) =>
    run(process.execPath, [path.join(ROOT, 'bin/dataapi.js'), ...args], work);

  it(
    'prints help, and exits 2 on a bad flag, a bad version or an unknown target',
    async () => {
      const help = await cli(['pack', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('dataapi pack client');
      expect((await cli(['pack'])).code).toBe(2);
      expect((await cli(['pack', 'server'])).stderr).toContain('can pack "client"');
      expect((await cli(['pack', 'client', '--nope'])).code).toBe(2);
      const bad = await cli(['pack', 'client', '--spec', SPEC, '--version', 'one', '--out', 'x']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('not a semver version');
      expect(existsSync(path.join(work, 'x'))).toBe(false);
    },
    LONG,
  );

  // The one real packing run of the command line: --name and --version are taken (one pack for
  // both checks, each costing a type-checked build).
  it(
    'takes --name and --version, and prints a next step that npm runs as printed: npm pack ./dist/client (dist/client is a GitHub repo to npm)',
    async () => {
      const project = path.join(work, 'fresh');
      await mkdir(project);
      const r = await run(
        process.execPath,
        [
          path.join(ROOT, 'bin/dataapi.js'),
          'pack',
          'client',
          '--spec',
          SPEC,
          '--name',
          'acme-data',
          '--version',
          '2.0.0-rc.1',
        ],
        project,
      );
      expect(r.code, r.stderr).toBe(0);
      const next = /Next: npm pack (\S+)\s+\(-> (\S+)\)/.exec(r.stdout);
      expect(next?.[1]).toBe(`.${path.sep}${path.join('dist', 'client')}`);
      expect(next?.[2]).toBe('acme-data-2.0.0-rc.1.tgz');
      const named = path.join(project, 'dist/client');
      const manifest = JSON.parse(await readFile(path.join(named, 'package.json'), 'utf8'));
      expect(manifest).toMatchObject({ name: 'acme-data', version: '2.0.0-rc.1' });
      expect(await readFile(path.join(named, 'README.md'), 'utf8')).toContain(
        'npm install acme-data',
      );
      // The README's packing step is this printed command.
      const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
      expect(readme).toMatch(/^npx dataapi pack client --out dist\/client /m);
      expect(readme).toMatch(/^npm pack \.\/dist\/client /m);
      const packed = await run('npm', ['pack', next![1]!], project);
      expect(packed.code, packed.stderr).toBe(0);
      expect(existsSync(path.join(project, next![2]!))).toBe(true);
      expect(npmFolderArg('/abs/out')).toBe('/abs/out');
      expect(npmFolderArg('../out')).toBe('../out');
    },
    LONG,
  );

  it(
    'exits 2 on a malformed spec and on an --out it did not write, changing nothing',
    async () => {
      const broken = path.join(work, 'broken.yaml');
      await writeFile(broken, 'openapi: 3.1.0\ninfo: [\n');
      const r = await cli(['pack', 'client', '--spec', broken, '--out', 'y']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('broken.yaml');
      expect(existsSync(path.join(work, 'y'))).toBe(false);
      const mine = path.join(work, 'mine');
      await mkdir(mine);
      await writeFile(path.join(mine, 'notes.txt'), 'keep me');
      const refused = await cli(['pack', 'client', '--spec', SPEC, '--out', mine]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('was not written by dataapi pack');
      expect(await readFile(path.join(mine, 'notes.txt'), 'utf8')).toBe('keep me');
    },
    LONG,
  );
});
