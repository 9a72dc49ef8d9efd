/**
 * One description through the corpus stages, each step a child process of its own in its own
 * process group, so that a step that hangs is killed with everything it started (the contract
 * run's vitest workers too) at the description's time bound.
 *
 * Stage 1: `dataapi generate` into a scratch folder inside the project (so that the generated
 * `dataapi/...` imports resolve, as in a user's project) and tsc's check over the tree (its
 * tsconfig, reading the runtime through its declaration files as another project would), in a
 * long-lived checker per job slot that parses the unchanging lib and declaration files once.
 * Stage 2: the same tree's contract suite against its embedded mock, with a short seeded fuzz run.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { firstError, STACK_LINE, type CorpusRecord, type Outcome } from './classify.ts';
import type { Typechecker } from './typechecker.ts';

export interface StageOptions {
  root: string;
  /** The description file. */
  spec: string;
  id: string;
  /** Scratch folder of this job slot (emptied first). */
  scratch: string;
  /** Where the contract report of a failed stage 2 is kept. */
  keepDir: string;
  stages: { one: boolean; two: boolean };
  timeoutMs: { one: number; two: number };
  fuzz: number;
  seed: number;
  /** This slot's long-lived type-checker (tsc's check, lib files parsed once). */
  typechecker: Typechecker;
}

interface Step {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  ms: number;
  timedOut: boolean;
}

/** Child processes still running (killed when the runner is interrupted). */
export const running = new Set<number>();

function step(
  cmd: string,
  args: string[],
  cwd: string,
  deadline: number,
  env: NodeJS.ProcessEnv = {},
): Promise<Step> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, {
      cwd,
      detached: true, // its own process group: killed as a whole
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      // eslint-disable-next-line no-control-regex
      output = (output + chunk.toString().replace(/\x1b\[[0-9;]*m/g, '')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup();
      },
      Math.max(0, deadline - Date.now()),
    );
    if (child.pid !== undefined) running.add(child.pid);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      killGroup(); // anything it left behind
      resolve({ code, signal, output, ms: performance.now() - started, timedOut });
    });
  });
}

const CLI = (root: string) => path.join(root, 'bin/dataapi.js');

/** While `npm run build` rewrites dist/, the command line says it is not built: not a finding. */
const NOT_BUILT = /the command line is not built/;

/** A `dataapi` command; waits out a rebuild of dist/ (up to 5 minutes) instead of recording it. */
async function toolkitStep(args: string[], cwd: string, deadline: number): Promise<Step> {
  for (let attempt = 0; ; attempt++) {
    const result = await step(process.execPath, args, cwd, deadline);
    if (!NOT_BUILT.test(result.output)) return result;
    if (attempt >= 30) throw new Error('the toolkit is not built (dist/): run `npm run build`');
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
}

/** Runs the asked stages; returns one record per stage run. */
export async function runDescription(o: StageOptions): Promise<CorpusRecord[]> {
  await rm(o.scratch, { recursive: true, force: true });
  await mkdir(o.scratch, { recursive: true });
  const out = path.join(o.scratch, 'out');
  const records: CorpusRecord[] = [];
  try {
    const one = await stageOne(o, out, o.stages.one);
    if (o.stages.one) records.push(one.record);
    if (o.stages.two && one.generated) records.push(await stageTwo(o, out));
    else if (o.stages.two) records.push({ ...one.record, stage: 2 });
  } finally {
    await rm(o.scratch, { recursive: true, force: true });
  }
  return records;
}

const at = () => new Date().toISOString();

async function stageOne(
  o: StageOptions,
  out: string,
  withTsc: boolean,
): Promise<{ record: CorpusRecord; generated: boolean }> {
  const started = performance.now();
  const deadline = Date.now() + o.timeoutMs.one;
  const base = { id: o.id, stage: 1 as const, at: at() };
  const done = (outcome: Outcome, steps: Record<string, number>, message?: string) => ({
    ...base,
    outcome,
    ...(message ? { message } : {}),
    ms: Math.round(performance.now() - started),
    steps,
  });
  // The up-to-date stamp is keyed by the output folder, which is fresh: --force for clarity.
  // --no-typecheck: tsc over the written tree is the judge here (the same check, as a user runs it).
  const gen = await toolkitStep(
    [CLI(o.root), 'generate', '--spec', o.spec, '--out', out, '--force', '--no-typecheck'],
    o.root,
    deadline,
  );
  const steps: Record<string, number> = { generate: Math.round(gen.ms) };
  if (gen.timedOut) return { record: done('timeout', steps, 'generate'), generated: false };
  const operations = Number(/(\d+) operations/.exec(gen.output)?.[1] ?? Number.NaN);
  if (gen.code !== 0) {
    // A refusal is a finding only when it says where: the file and a pointer or line. Exit 2
    // without one (an exception of a library caught at the top) is the toolkit's failure.
    const located = /#\/|:\d+:\d+/.test(gen.output);
    const crashed =
      STACK_LINE.test(gen.output) ||
      (gen.code !== 1 && gen.code !== 2) ||
      (gen.code === 2 && !located);
    const outcome: Outcome = crashed
      ? 'generate-crash'
      : gen.code === 1
        ? 'generate-invalid-output'
        : 'description-refused';
    const message = gen.signal ? `killed by ${gen.signal}` : firstError(gen.output);
    return { record: done(outcome, steps, message), generated: false };
  }
  const withOps = (r: CorpusRecord) => (Number.isFinite(operations) ? { ...r, operations } : r);
  if (!withTsc) return { record: withOps(done('ok', steps)), generated: true };
  const config = {
    extends: path.relative(out, path.join(o.root, 'tsconfig.json')).split(path.sep).join('/'),
    compilerOptions: { customConditions: [] }, // the runtime's declaration files, as a user reads them
    include: ['**/*.ts'],
    exclude: [],
  };
  await writeFile(path.join(out, 'tsconfig.json'), JSON.stringify(config));
  const tsc = await o.typechecker.check(out, deadline);
  steps.tsc = Math.round(tsc.ms);
  if (tsc.timedOut) return { record: withOps(done('timeout', steps, 'tsc')), generated: true };
  const answer = tsc.answer;
  if (!answer || answer.failed) {
    // The checker's own trouble (out of memory on a huge tree): recorded, not blamed on generate.
    const record = done('tsc-errors', steps, tsc.died ?? answer?.failed ?? 'no answer');
    return { record: withOps(record), generated: true };
  }
  if (answer.errors > 0) {
    const record = done('tsc-errors', steps, answer.first);
    return { record: withOps({ ...record, failed: answer.errors }), generated: true };
  }
  return { record: withOps(done('ok', steps)), generated: true };
}

async function stageTwo(o: StageOptions, out: string): Promise<CorpusRecord> {
  const started = performance.now();
  const deadline = Date.now() + o.timeoutMs.two;
  const reports = path.join(o.scratch, 'reports');
  const results = path.join(reports, 'results.json');
  const run = await toolkitStep(
    [
      CLI(o.root),
      'contract',
      '--dir',
      out,
      '--fuzz',
      String(o.fuzz),
      '--seed',
      String(o.seed),
      '--reporter',
      'dot',
      '--report-dir',
      reports,
      '--results',
      results,
    ],
    o.root,
    deadline,
  );
  const base = {
    id: o.id,
    stage: 2 as const,
    at: at(),
    ms: Math.round(performance.now() - started),
    steps: { contract: Math.round(run.ms) },
  };
  if (run.timedOut) return { ...base, outcome: 'timeout', message: 'contract' };
  if (!existsSync(results)) {
    return { ...base, outcome: 'suite-crash', message: firstError(run.output) };
  }
  const text = await readFile(results, 'utf8');
  const report = JSON.parse(text) as ContractResults;
  const failed = report.summary?.failed ?? 0;
  const fuzzFindings = Object.values(report.fuzz?.operations ?? {}).reduce(
    (n, op) => n + (op.findings ?? 0),
    0,
  );
  const firstFailure = report.results?.find((r) => r.status === 'failed');
  const fault = report.toolkitFaults?.[0];
  const message = firstFailure
    ? `${firstFailure.check}: ${String(firstFailure.message ?? '').split('\n')[0]}`.slice(0, 400)
    : fault
      ? `toolkit fault ${fault.check} (${fault.purpose}): ${fault.message}`.slice(0, 400)
      : undefined;
  const toolkitFaults = report.summary?.toolkitFaults ?? 0;
  const counts = {
    failed,
    fuzzFindings,
    toolkitFaults,
    operations: report.coverage?.operations?.length ?? 0,
  };
  const crashed = STACK_LINE.test(run.output) && failed === 0;
  const outcome: Outcome = crashed
    ? 'suite-crash'
    : failed > fuzzFindings
      ? 'suite-failures'
      : fuzzFindings > 0
        ? 'fuzz-failures'
        : toolkitFaults > 0
          ? 'toolkit-faults'
          : run.code === 0
            ? 'ok'
            : 'suite-crash';
  const why = outcome === 'suite-crash' && !message ? firstError(run.output) : message;
  // The whole report of a failed run is kept for a look (the scratch folder goes).
  if (outcome !== 'ok') {
    const kept = path.join(o.keepDir, `${o.id.replaceAll('/', '__')}.results.json`);
    await mkdir(o.keepDir, { recursive: true });
    await writeFile(kept, text);
  }
  return { ...base, outcome, ...(outcome !== 'ok' && why ? { message: why } : {}), ...counts };
}

interface ContractResults {
  summary?: { failed?: number; toolkitFaults?: number };
  toolkitFaults?: { check: string; purpose: string; message: string }[];
  results?: { check: string; status: string; message?: string }[];
  coverage?: { operations?: string[] };
  fuzz?: { operations?: Record<string, { findings?: number }> };
}
