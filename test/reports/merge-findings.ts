/**
 * What a run found, without what changes from run to run (durations, timestamps, the embedded
 * mock's port, the order requests went out in): two runs that tested the same things the same way
 * have equal findings, however they were split.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContractReport } from '../../contract-tests/reports/index.ts';
import { ROOT } from './fixture.ts';

export function findingsOf(report: ContractReport) {
  return {
    checks: report.results.map((r) => `${r.operation} ${r.variant} ${r.check} ${r.status}`).sort(),
    // Each check's requests as a multiset: what was asked and what came back, not when or where.
    exchanges: report.results
      .flatMap((r) =>
        r.exchanges.map(
          (e) =>
            `${r.operation} ${r.variant} ${r.check}: ${e.request.method} ${e.request.purpose} -> ${e.status ?? e.error}`,
        ),
      )
      .sort(),
    summary: {
      passed: report.summary.passed,
      failed: report.summary.failed,
      skipped: report.summary.skipped,
      warnings: report.summary.warnings,
      requests: report.summary.requests,
    },
    warnings: report.warnings.map((w) => `${w.code} ${w.pointer} ${w.message}`).sort(),
    errors: report.errors,
    coverage: report.coverage,
    coverageReport: report.coverageReport,
  };
}

export async function readReport(dir: string): Promise<ContractReport> {
  return JSON.parse(
    await readFile(path.join(dir, 'contract-results.json'), 'utf8'),
  ) as ContractReport;
}

/** `dataapi report merge ...` through the built bin, in the project's folder. */
export async function reportMerge(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS') childEnv[k] = v;
  Object.assign(childEnv, { FORCE_COLOR: '0', NO_COLOR: '1' }, env);
  const child = spawn(process.execPath, ['bin/dataapi.js', 'report', 'merge', ...args], {
    cwd: ROOT,
    env: childEnv,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  return { code, stdout, stderr };
}
