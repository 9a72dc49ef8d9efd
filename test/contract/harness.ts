/**
 * Runs `dataapi contract` as QA would (a child process, real HTTP) and reads its results file.
 * The child is a fresh process: vitest's own environment variables are not passed on.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckResult, ContractRunResult } from '../../contract-tests/results.ts';
import { removeAfterFile } from '../cleanup.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const KEY = 'contract-secret-key-5b9e';
const SAFETY_TIMEOUT = ['--timeout', '300000'];

/** A fresh report folder in the OS temp dir, removed after the test file (KEEP_WORK=1 keeps it). */
export function reportDir(name: string): string {
  return removeAfterFile(mkdtempSync(path.join(tmpdir(), `dataapi-report-${name}-`)));
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  result?: ContractRunResult;
}

export async function runCli(
  command: string,
  args: string[],
  name: string,
  env: Record<string, string> = {},
  /**
   * The run's report folder, kept (its contract-results.json is the results file): for a test
   * that reads the folder afterwards (`dataapi report merge`). It must be a fresh one.
   */
  keep: { reportDir?: string } = {},
): Promise<CliRun> {
  // The results file in a folder of this run's own: a run that writes none cannot be read as the
  // result an earlier run left, and two runs at once never share one.
  const dir = keep.reportDir ?? (await mkdtemp(path.join(tmpdir(), `dataapi-contract-${name}-`)));
  const results = path.join(dir, keep.reportDir ? 'contract-results.json' : 'results.json');
  const reportDir = keep.reportDir ? ['--report-dir', keep.reportDir] : [];
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST')
      childEnv[k] = v;
  // No VITEST_* of the test run's own: the suite runs on its config's one worker, as for a user
  // (a test that proves files on several workers passes VITEST_MAX_WORKERS itself).
  Object.assign(childEnv, { DATAAPI_APPKEY: KEY, FORCE_COLOR: '0', NO_COLOR: '1' }, env);
  // The toolkit's default per-request timeout (10 s) is a limit a busy 2-core machine can reach
  // (a large description's first answer compiles its validators): a run that does not test
  // timeouts itself gets a safety net instead.
  const timeout = command === 'contract' && !args.includes('--timeout') ? SAFETY_TIMEOUT : [];
  const child = spawn(
    process.execPath,
    ['bin/dataapi.js', command, ...args, ...timeout, ...reportDir, '--results', results],
    {
      cwd: ROOT,
      env: childEnv,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  let result: ContractRunResult | undefined;
  try {
    result = JSON.parse(await readFile(results, 'utf8')) as ContractRunResult;
  } catch {
    result = undefined;
  } finally {
    if (!keep.reportDir) await rm(dir, { recursive: true, force: true });
  }
  return { code, stdout, stderr, ...(result ? { result } : {}) };
}

export function find(
  run: CliRun,
  operation: string,
  check: string,
  variant: 'main' | 'preview' = 'main',
): CheckResult | undefined {
  return run.result?.results.find(
    (r) => r.operation === operation && r.check === check && r.variant === variant,
  );
}

export function failedOf(run: CliRun): string[] {
  return (run.result?.results ?? [])
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.operation} ${r.check} ${r.variant}`);
}
