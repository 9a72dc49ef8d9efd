/**
 * `--spec FILE` caches a description's suite in node_modules/.cache/dataapi/: CI jobs and shards
 * on one machine start several runs on the same file at once, and each must find a whole suite
 * (one generation at a time, the others reuse it).
 */
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.ts';
import { suiteDir, suiteFor, type SuiteFolder } from '../../scripts/spec-suite.ts';
import { ROOT } from './harness.ts';

describe('the --spec cache folder', () => {
  // A folder of this file's own: the cache is keyed by the description's path.
  let spec = '';
  afterAll(async () => {
    if (!spec) return;
    await rm(suiteDir(spec), { recursive: true, force: true });
    await rm(path.dirname(spec), { recursive: true, force: true });
  });

  it('survives runs on the same description started at once', async () => {
    spec = path.join(await mkdtemp(path.join(tmpdir(), 'dataapi-spec-cache-')), 'planted.yaml');
    await cp(path.join(ROOT, 'test/fixtures/fuzz/planted.yaml'), spec);
    await rm(suiteDir(spec), { recursive: true, force: true });
    const runs = await Promise.allSettled([1, 2, 3, 4].map(() => suiteFor(spec)));
    const failed = runs.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    expect(failed).toEqual([]);
    const suites = runs.map((r) => (r as PromiseFulfilledResult<SuiteFolder>).value);
    // One of them generated; the others waited and found its whole tree up to date.
    expect(suites.filter((s) => s.regenerated)).toHaveLength(1);
    const model = await readFile(path.join(suites[0]!.generatedDir, 'model.json'), 'utf8');
    expect(model).toContain('searchPeople');
    await expect(
      readFile(path.join(suites[0]!.generatedDir, 'mock', 'index.ts'), 'utf8'),
    ).resolves.toContain('export');
  });

  it('leaves a whole suite untouched when it is up to date (a running suite reads it)', async () => {
    // Box's suite was run by two test files at once: the second's rewrite of package.json
    // emptied it under the first's vitest ("package.json: File is empty").
    const pkg = path.join(suiteDir(spec), 'package.json');
    const before = (await stat(pkg)).mtimeMs;
    const again = await suiteFor(spec);
    expect(again.regenerated).toBe(false);
    expect((await stat(pkg)).mtimeMs).toBe(before);
    expect(JSON.parse(await readFile(pkg, 'utf8'))).toEqual({ private: true, type: 'module' });
  });

  it('holds only what a contract run reads, and a whole generate there is not taken as done', async () => {
    // No types.ts, client or server, nothing formatted and no compiler: on GitHub's description
    // that is about a minute of CPU the first run on a description no longer spends.
    const dir = path.join(suiteDir(spec), 'generated');
    expect((await readdir(dir)).sort()).toEqual([
      '.dataapi-manifest.json',
      'contract-tests',
      'mock',
      'model.json',
      'model.ts',
    ]);
    // The up-to-date stamp tells the suite's run from a whole one into the same folder.
    const whole = await generate({ spec, out: dir, typecheck: false });
    expect(whole.upToDate).toBe(false);
    expect(whole.files.map((f) => f.path)).toContain('types.ts');
    expect((await suiteFor(spec)).regenerated).toBe(true);
    expect(await readdir(dir)).not.toContain('types.ts');
  });
});
