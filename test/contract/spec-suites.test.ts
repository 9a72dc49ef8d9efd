/**
 * `dataapi contract --spec FILE` as a new user runs it on descriptions nobody here wrote (issue 13's
 * proof): the description's own suite is generated into a cache folder (generated/ untouched) and
 * run against its embedded mock: exit 0, no failure, the description's warnings listed with their
 * JSON pointers in every report. The larger descriptions are in spec-proof-*.test.ts (one file
 * each, so they run in parallel). A bad file is a clear error (exit 2).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, reportDir, runCli } from './harness.ts';
import { provenOnOwnMock, THIRD_PARTY } from './spec-proof.ts';

describe('dataapi contract --spec FILE against its own embedded mock', () => {
  it('museum: exit 0, the description warnings in every report; --strict fails on them', async () => {
    const spec = path.join(THIRD_PARTY, 'museum.yaml');
    const run = await provenOnOwnMock(spec, 'spec-museum', 8, [
      '--reporter',
      'console,json,junit,html',
    ]);
    const r = run.result!;
    expect(r.warnings.length).toBeGreaterThan(0);
    for (const w of r.warnings) expect(w.pointer, JSON.stringify(w)).toMatch(/^\/paths\//);
    // museum declares no 401: the no-key probe's 401 is the description's silence, not a failure.
    expect(
      r.warnings.some((w) => w.code === 'undeclared-status' && /HTTP 401/.test(w.message)),
    ).toBe(true);
    const junit = await readFile(path.join(run.reportDir, 'contract-junit.xml'), 'utf8');
    const html = await readFile(path.join(run.reportDir, 'contract-report.html'), 'utf8');
    // `json` names the results file (--results, set by runCli): one JSON report, none beside it.
    // The results file as written (runCli parses it whole).
    const json = run.result as unknown as { reportVersion: number; warnings: unknown[] };
    expect(json.reportVersion).toBe(1);
    expect(json.warnings).toHaveLength(r.warnings.length);
    await expect(stat(path.join(run.reportDir, 'contract-report.json'))).rejects.toThrow(/ENOENT/);
    expect(junit).toContain('dataapi description warnings');
    expect(html).toContain('id="description-warnings"');
    // --strict: the same warnings fail the run.
    const strict = await runCli(
      'contract',
      ['--spec', spec, '--strict', '--report-dir', reportDir('spec-museum-strict')],
      'spec-museum-strict',
    );
    expect(strict.code).toBe(1);
    expect(strict.result?.summary.failed).toBe(0);
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
