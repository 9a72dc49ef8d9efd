/**
 * `dataapi contract --spec FILE` as a new user runs it on descriptions nobody here wrote: the
 * description's own suite is generated into a cache folder (generated/ untouched) and run against
 * its embedded mock: 0 failures, exit 0, the description's warnings listed with their JSON
 * pointers. A bad file is a clear error (exit 2).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

const THIRD_PARTY = path.join(ROOT, 'test/fixtures/third-party');
const treeHash = async () =>
  createHash('sha256')
    .update(await readFile(path.join(ROOT, 'generated/.dataapi-manifest.json')))
    .digest('hex');

// The exit-0 proof on every third-party description waits on the mock's error shapes (issue 13,
// mock side); until then this holds what the suite itself owes: its own cache folder, a run to
// the end, and the description's warnings in every report with their JSON pointers.
describe('dataapi contract --spec FILE against its own embedded mock', () => {
  it('museum: runs in a cache folder, lists the description warnings in every report', async () => {
    const before = await treeHash();
    const reportDir = path.join(ROOT, 'test/.work/contract', 'spec-museum');
    const spec = path.join(THIRD_PARTY, 'museum.yaml');
    const run = await runCli(
      'contract',
      ['--spec', spec, '--reporter', 'console,json,junit,html', '--report-dir', reportDir],
      'spec-museum',
    );
    const tail = run.stdout.slice(-4000) + run.stderr.slice(-2000);
    expect(run.result?.errors, tail).toEqual([]);
    expect([0, 1], tail).toContain(run.code);
    const r = run.result!;
    expect(r.target.embeddedMock).toBe(true);
    expect(r.summary.passed).toBeGreaterThan(0);
    expect(r.warnings.length).toBeGreaterThan(0);
    expect(r.summary.warnings).toBe(r.warnings.length);
    for (const w of r.warnings) expect(w.pointer, JSON.stringify(w)).toMatch(/^\/paths\//);
    // museum declares no 401: the no-key probe's 401 is the description's silence, not a failure.
    expect(
      r.warnings.some((w) => w.code === 'undeclared-status' && /HTTP 401/.test(w.message)),
    ).toBe(true);
    expect(failedOf(run).filter((f) => / status /.test(f))).toEqual([]);
    const junit = await readFile(path.join(reportDir, 'contract-junit.xml'), 'utf8');
    const html = await readFile(path.join(reportDir, 'contract-report.html'), 'utf8');
    // `json` names the results file (--results, set by runCli): one JSON report, none beside it.
    const json = JSON.parse(
      await readFile(path.join(ROOT, 'test/.work/contract/spec-museum.json'), 'utf8'),
    );
    expect(json.reportVersion).toBe(1);
    expect(json.warnings).toHaveLength(r.warnings.length);
    await expect(stat(path.join(reportDir, 'contract-report.json'))).rejects.toThrow(/ENOENT/);
    expect(run.stdout).toContain(`Description warnings (${r.warnings.length})`);
    expect(junit).toContain('dataapi description warnings');
    expect(html).toContain('id="description-warnings"');
    expect(await treeHash()).toBe(before);
    // --strict: the same warnings fail the run.
    const strict = await runCli(
      'contract',
      ['--spec', spec, '--strict', '--report-dir', reportDir],
      'spec-museum-strict',
    );
    expect(strict.code).toBe(1);
  }, 600_000);
});

describe('dataapi contract --spec: bad input', () => {
  it('a missing file: exit 2, the file named, no suite', async () => {
    const run = await runCli('contract', ['--spec', 'no/such/openapi.yaml'], 'spec-missing');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--spec no/such/openapi.yaml: no such file');
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack
  });

  it('a malformed description: exit 2, file and line named, nothing written', async () => {
    const bad = path.join(ROOT, 'test/fixtures/generator-load/bad-syntax.yaml');
    await stat(bad);
    const run = await runCli('contract', ['--spec', bad], 'spec-malformed');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bad-syntax.yaml');
    expect(run.stderr).toContain('Nothing was written');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
