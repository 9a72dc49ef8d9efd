/**
 * A hostile description: names, descriptions, enum values and examples full of comment ends,
 * backticks, `${...}`, quotes, backslashes, line terminators, `</script>`, `__proto__`,
 * reserved words, leading digits and path-like names. Every kind of output is generated, must
 * compile, must keep the hostile text as data, must stay inside --out, and importing every
 * module must run none of it (a canary global and `process.exit(7)`).
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../generator/generate.ts';
import type { ServiceModel } from 'dataapi/model';
import {
  cleanup,
  FIXTURES,
  importAll,
  ROOT,
  scratch,
  snapshot,
  typecheck,
  type Run,
} from './helpers.ts';

const SPEC = path.join(FIXTURES, 'generator-hostile.json');

let base: string;
let out: string;
let result: GenerateResult;
let tsc: Run;
let imports: Awaited<ReturnType<typeof importAll>>;
let tree: Record<string, string> | null;

let plantedPwn: Awaited<ReturnType<typeof importAll>>;
let plantedExit: Awaited<ReturnType<typeof importAll>>;

beforeAll(async () => {
  base = await scratch('hostile', true);
  // Planted modules that do what an injection would: the canary must see them.
  const planted = path.join(base, 'planted');
  await mkdir(path.join(planted, 'pwn'), { recursive: true });
  await mkdir(path.join(planted, 'exit'), { recursive: true });
  await writeFile(
    path.join(planted, 'pwn/a.ts'),
    "(globalThis as any).__dataapiPwned = 'x';\nexport {};\n",
  );
  await writeFile(path.join(planted, 'exit/a.ts'), 'process.exit(7);\nexport {};\n');
  const plants = Promise.all([
    importAll(path.join(planted, 'pwn')),
    importAll(path.join(planted, 'exit')),
  ]);
  out = path.join(base, 'a/b/out');
  result = await generate({ spec: SPEC, out, force: true, typecheck: false });
  tree = await snapshot(base);
  // One compiler run and one importing process, side by side. The compiler reads the runtime
  // through its declaration files (dist/), as another project does: its sources are
  // type-checked by `npm test`'s tsc, and checking them again here took most of this run.
  [tsc, imports] = await Promise.all([typecheck(out, true), importAll(out)]);
  [plantedPwn, plantedExit] = await plants;
});

afterAll(() => cleanup(base));

describe('a hostile description', () => {
  it('generates every kind of output there are templates for', async () => {
    const kinds = (await readdir(path.join(ROOT, 'templates'), { withFileTypes: true }))
      // templates/pack is the packed client's (dataapi pack), not a generate kind.
      .filter((d) => d.isDirectory() && !d.name.startsWith('_') && d.name !== 'pack')
      .map((d) => d.name);
    expect(kinds.length).toBeGreaterThan(0);
    const top = new Set(result.files.map((f) => f.path.split('/')[0]));
    for (const kind of kinds) expect(top, kind).toContain(kind);
    expect(result.model!.operations.map((o) => o.operationId ?? null).sort()).toEqual(
      ['../../evil', '/etc/x', 'class', null].sort(),
    );
  });

  it('writes only inside --out, with sanitised file names', () => {
    const entries = Object.keys(tree ?? {});
    for (const rel of entries)
      expect(rel, rel).toMatch(/^(a(\/b(\/out(\/.*)?)?)?|planted(\/.*)?)$/);
    for (const f of result.files) {
      expect(f.path).toMatch(
        /^(\.dataapi-manifest\.json|[a-z0-9-]+(\/[a-z0-9-]+)*(\.test)?\.(ts|json))$/,
      );
    }
    expect(entries).toContain('a/b/out/contract-tests/evil.test.ts');
    expect(entries).toContain('a/b/out/contract-tests/etc-x.test.ts');
  });

  it('keeps the hostile text as data in the model', async () => {
    const doc = JSON.parse(await readFile(SPEC, 'utf8')) as {
      paths: Record<string, Record<string, { summary?: string; description?: string }>>;
      info: { title: string };
    };
    const model = JSON.parse(await readFile(path.join(out, 'model.json'), 'utf8')) as ServiceModel;
    expect(model.title).toBe(doc.info.title);
    const cls = model.operations.find((o) => o.operationId === 'class')!;
    expect(cls.summary).toBe(doc.paths['/items/{id}']!['get']!.summary);
    expect(cls.description).toBe(doc.paths['/items/{id}']!['get']!.description);
    expect(cls.description).toContain('\u2028');
    // `__proto__` stays an own property everywhere it is a name.
    expect(Object.keys((cls.querySchema as { properties: object }).properties)).toContain(
      '__proto__',
    );
    const proto = (model.schemaRoot['$defs'] as Record<string, { properties: object }>)['proto__'];
    expect(Object.keys(proto?.properties ?? {})).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'hasOwnProperty']),
    );
    const types = await readFile(path.join(out, 'types.ts'), 'utf8');
    expect(types).toMatch(/__proto__\??:/);
    expect(types).toMatch(/hasOwnProperty\??:/);
  });

  it('type-checks', () => {
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it('imports every generated module without running any injected code', () => {
    const { run, report } = imports;
    expect(run.code, run.stderr).toBe(0); // an injected process.exit(7) would show here
    expect(report, run.stdout + run.stderr).toBeDefined();
    expect(report!.pwned).toBeNull();
    expect(report!.failed).toEqual([]);
    const modules = result.files.filter((f) => f.path.endsWith('.ts')).map((f) => f.path);
    expect([...report!.imported, ...report!.needRunner].sort()).toEqual(modules.sort());
    for (const rel of report!.needRunner) expect(rel).toMatch(/\.test\.ts$/);
  });

  it('the canary does see injected code (planted modules)', () => {
    expect(plantedPwn.report?.pwned).toBe('x');
    expect(plantedExit.run.code).toBe(7);
  });
});
