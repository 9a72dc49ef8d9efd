/**
 * The proof of `dataapi contract --spec FILE` on a description (issue 13): its own suite, generated
 * into a cache folder (generated/ untouched), run against its embedded mock, exits 0 with no
 * failure and every operation tested; the description's warnings are listed, each with its JSON
 * pointer, in the results and the console report.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { failedOf, reportDir, ROOT, runCli, type CliRun } from './harness.ts';

export const THIRD_PARTY = path.join(ROOT, 'test/fixtures/third-party');

/** A hash of generated/'s manifest: --spec must leave the project's tree alone. */
export const treeHash = async () =>
  createHash('sha256')
    .update(await readFile(path.join(ROOT, 'generated/.dataapi-manifest.json')))
    .digest('hex');

export async function provenOnOwnMock(
  spec: string,
  name: string,
  operations: number,
  extra: string[] = [],
): Promise<CliRun & { reportDir: string }> {
  const before = await treeHash();
  const reports = reportDir(name);
  // The harness's one suite worker, which overlaps the operations' paced requests itself.
  const run = await runCli('contract', ['--spec', spec, '--report-dir', reports, ...extra], name);
  const tail = run.stdout.slice(-4000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result?.errors, tail).toEqual([]);
  expect(run.code, tail).toBe(0);
  const r = run.result!;
  expect(r.target.embeddedMock).toBe(true);
  expect(new Set(r.results.map((x) => x.operation)).size).toBe(operations);
  expect(r.summary.failed).toBe(0);
  expect(r.summary.passed).toBeGreaterThan(operations * 5);
  expect(r.summary.warnings).toBe(r.warnings.length);
  for (const w of r.warnings) expect(w.pointer, JSON.stringify(w)).toMatch(/^\/./);
  if (r.warnings.length > 0)
    expect(run.stdout).toContain(`Description warnings (${r.warnings.length})`);
  expect(await treeHash()).toBe(before);
  return { ...run, reportDir: reports };
}

/**
 * A small description's own suite (issue 26's class tests) against its embedded mock: no failure,
 * no toolkit fault, exit 0. `spec` is a path from the project's root; the run comes back with the
 * tail of its output, for the messages of the test's own further checks.
 */
export async function cleanOnOwnMock(
  spec: string,
  name: string,
  extra: string[] = [],
): Promise<CliRun & { tail: string }> {
  const run = await runCli('contract', ['--spec', path.resolve(ROOT, spec), ...extra], name);
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result?.toolkitFaults ?? [], tail).toEqual([]);
  expect(run.code, tail).toBe(0);
  return { ...run, tail };
}
