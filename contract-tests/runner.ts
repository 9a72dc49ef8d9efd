/**
 * The contract runner: picks the target (a deployment, or the embedded mock on an ephemeral port),
 * serves the shared scheduler, runs the generated suite through vitest's Node API with the target
 * provided to the workers, collects each test's CheckResult and writes the run's results file.
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toFileStem, type ServiceModel } from 'dataapi/model';
import { keyWarning, redactorFor, type Redactor } from 'dataapi/runtime/shared';
import { didYouMean } from '../model/suggest.ts';
import { RETRY_DEFAULTS, type ContractConfig } from './config.ts';
import { Collector } from './collector.ts';
import { coverageOf, type CheckName, type ContractRunResult, type Variant } from './results.ts';
import { MissingModelError, readModelFile } from '../runtime/shared/model-file.ts';
import { RunError } from './run-error.ts';
import { unreachable } from './reachable.ts';
import { LocalScheduler, serveScheduler } from './scheduler.ts';
import { startEmbeddedMock } from './target.ts';
import { modelFromJson } from './model-plugin.ts';
import { dedupeWarnings, modelWarnings } from './warnings.ts';
import { chooseSeed, writeReplays } from './fuzz/replay-file.ts';
import { writeSavedFailures } from './saved-files.ts';
import { vitestReporters, VITEST_FILES, writeReports } from './reports/index.ts';

export interface RunOptions {
  /** Project root: where generated/ is (default: cwd). */
  root?: string;
  /**
   * The generated tree to test (model.ts, mock/, contract-tests/): default `<root>/generated`;
   * `--spec` points it at a description's own suite in a cache folder.
   */
  generatedDir?: string;
  /** Description warnings fail the run (exit 1). */
  strict?: boolean;
  baseUrl?: string;
  appkey?: string;
  only?: string[];
  /** Reporters by name: console, junit, json, html (reports/index.ts), or vitest's (default: console). */
  reporters?: string[];
  /** Where report files go (default: reports/ under root). */
  reportDir?: string;
  timeoutMs: number;
  shard?: string;
  allowWrites: boolean;
  maxResponseTimeMs?: number;
  budget?: number;
  /** Where the structured results go (default <reportDir>/contract-results.json). */
  resultsFile?: string;
  out?: NodeJS.WritableStream;
  /** --fuzz N: N valid and N invalid generated requests per operation. */
  fuzz?: number;
  /** --seed S of the fuzzing (default: chosen at random and printed). */
  seed?: number;
  /** The --spec the run was given (replay lines repeat it). */
  spec?: string;
  /** Only these checks (--checks, less --exclude-checks); absent: every check. */
  checks?: CheckName[];
  /** --save-failures DIR: each failure written there as a vitest test that replays it. */
  saveFailures?: string;
}

export interface RunOutcome {
  exitCode: number;
  result?: ContractRunResult;
  resultsFile?: string;
}

export { RunError };

const DEFAULT_MOCK_KEY = 'dataapi-contract-key';

/** The suite's vitest config beside this module: vitest.config.ts in the sources, .js when built. */
const VITEST_CONFIG = fileURLToPath(
  new URL(`./vitest.config${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

export async function runContract(o: RunOptions): Promise<RunOutcome> {
  const root = path.resolve(o.root ?? process.cwd());
  const out = o.out ?? process.stdout;
  const started = Date.now();
  const generatedDir = path.resolve(root, o.generatedDir ?? 'generated');
  const model = await loadModel(generatedDir);
  const selection = o.only?.length ? selectOperations(model, o.only) : undefined;
  const only = selection ? Object.keys(selection) : undefined;

  let baseUrl = o.baseUrl?.replace(/\/+$/, '');
  let appkey = o.appkey ?? '';
  const keyProvided = appkey !== '';
  const redactor = redactorFor([appkey]);
  const closers: (() => Promise<void>)[] = [];
  const reportDir = path.resolve(root, o.reportDir ?? 'reports');
  const resultsFile = path.resolve(
    root,
    o.resultsFile ??
      process.env.DATAAPI_CONTRACT_RESULTS ??
      path.join(reportDir, 'contract-results.json'),
  );
  await refuseNonFolder(reportDir, '--report-dir');
  await refuseNonFolder(path.dirname(resultsFile), '--results');
  try {
    let embedded = false;
    const errors: string[] = [];
    if (baseUrl === undefined) {
      appkey ||= DEFAULT_MOCK_KEY;
      const mock = await startEmbeddedMock(generatedDir, appkey);
      closers.push(mock.close);
      baseUrl = mock.url;
      embedded = true;
    } else {
      const why = await unreachable(parseBaseUrl(baseUrl, redactor), o.timeoutMs);
      if (why !== undefined) {
        const message = `cannot reach the target ${redactor.url(baseUrl)}: ${redactor.text(why)}. Nothing was tested.`;
        process.stderr.write(`dataapi contract: ${message}\n`);
        errors.push(message);
      } else if (!keyProvided)
        process.stderr.write(
          'dataapi contract: DATAAPI_APPKEY is not set: requests that need a key are sent without one and will be refused (401)\n',
        );
    }
    const warning = keyProvided ? keyWarning(appkey) : undefined;
    if (warning) process.stderr.write(`dataapi contract: ${warning}\n`);

    const fuzz = o.fuzz !== undefined ? { runs: o.fuzz, seed: o.seed ?? chooseSeed() } : undefined;
    if (fuzz)
      out.write(
        `dataapi contract: fuzzing with --seed ${fuzz.seed}: ${fuzz.runs} valid and ${fuzz.runs} invalid generated requests per operation${o.seed === undefined ? ' (seed chosen for this run; repeat it with --seed)' : ''}\n`,
      );
    const scheduler = new LocalScheduler(o.budget);
    const config: ContractConfig = {
      baseUrl,
      appkey,
      timeoutMs: o.timeoutMs,
      // The embedded mock is ours to write to.
      allowWrites: o.allowWrites || embedded,
      ...RETRY_DEFAULTS,
      ...(selection ? { variants: selection } : {}),
      ...(o.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: o.maxResponseTimeMs } : {}),
      ...(o.budget !== undefined ? { budget: o.budget } : {}),
      ...(fuzz ? { fuzz } : {}),
      ...(o.checks ? { checks: o.checks } : {}),
      ...(o.saveFailures !== undefined ? { saveFailures: true } : {}),
    };
    const collector = new Collector([appkey]);
    // A description of webhooks only (3.1) describes no request to send: nothing to test.
    const empty = model.operations.length === 0;
    if (empty)
      process.stderr.write(
        `dataapi contract: the description has no operations${(model.webhooks ?? []).length > 0 ? ` (only ${model.webhooks.length} webhooks, which the API sends)` : ''}: nothing to test\n`,
      );
    if (errors.length === 0 && !empty) {
      const served = await serveScheduler(scheduler);
      closers.push(served.close);
      config.schedulerUrl = served.url;
      const workers = workersFor(model.operations.length);
      await runSuite(root, generatedDir, o, config, only, reportDir, out, collector, workers);
    }

    const results = collector.sorted();
    const warnings = dedupeWarnings([
      ...modelWarnings(model),
      ...results.flatMap((r) => r.warnings ?? []),
    ]);
    const summary = {
      passed: 0,
      failed: 0,
      skipped: 0,
      requests: scheduler.requests,
      warnings: warnings.length,
      toolkitFaults: 0,
    };
    for (const r of results) summary[r.status]++;
    // Not the target's: counted apart, and no reason to fail the run (see recheck.ts).
    const toolkitFaults = results.flatMap((r) => r.toolkitFaults ?? []);
    summary.toolkitFaults = toolkitFaults.length;
    errors.push(...collector.errors, ...scheduler.breakers.notes());
    if (results.length === 0 && errors.length === 0 && !empty)
      errors.push(
        'no contract test ran (is generated/contract-tests/ there? run `dataapi generate`)',
      );
    const result: ContractRunResult = {
      version: 1,
      target: { baseUrl, embeddedMock: embedded, keyProvided },
      options: {
        ...(only ? { only } : {}),
        ...(o.shard ? { shard: o.shard } : {}),
        timeoutMs: o.timeoutMs,
        allowWrites: config.allowWrites,
        ...(o.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: o.maxResponseTimeMs } : {}),
        ...(o.budget !== undefined ? { budget: o.budget } : {}),
        ...(o.strict ? { strict: true } : {}),
        ...(fuzz ? { fuzz: fuzz.runs, seed: fuzz.seed } : {}),
        ...(o.checks ? { checks: o.checks } : {}),
      },
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      summary,
      budgetExhausted: scheduler.exhausted,
      results,
      coverage: coverageOf(results),
      errors,
      warnings,
      ...(toolkitFaults.length > 0 ? { toolkitFaults } : {}),
      ...(fuzz
        ? {
            fuzz: {
              ...fuzz,
              seedChosen: o.seed === undefined,
              operations: Object.fromEntries(
                Object.keys(collector.fuzz)
                  .sort()
                  .map((k) => [k, collector.fuzz[k]!]),
              ),
            },
          }
        : {}),
    };
    if (fuzz)
      await writeReplays(result, {
        dir: path.join(reportDir, 'fuzz'),
        root,
        redactor,
        ...(o.spec !== undefined ? { spec: o.spec } : {}),
        ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
        allowWrites: o.allowWrites,
      });
    if (o.saveFailures !== undefined) {
      const saved = await writeSavedFailures(result, {
        dir: path.resolve(root, o.saveFailures),
        model,
        redactor,
      });
      if (saved.length > 0)
        out.write(
          `dataapi contract: ${saved.length} failure${saved.length === 1 ? '' : 's'} saved as tests in ${path.relative(root, path.resolve(root, o.saveFailures)) || '.'}\n`,
        );
    }
    // The results file is the JSON report (values redacted, structure never touched).
    await writeReports(result, {
      model,
      ...(o.reporters ? { reporters: o.reporters } : {}),
      dir: reportDir,
      root,
      out,
      secrets: [appkey],
      resultsFile,
      color: colorFor(out),
    });
    const failed =
      summary.failed > 0 || errors.length > 0 || (o.strict === true && warnings.length > 0);
    return { exitCode: failed ? 1 : 0, result, resultsFile };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}

/** Runs the generated suite through vitest's Node API; the collector receives the results. */
async function runSuite(
  root: string,
  generatedDir: string,
  o: RunOptions,
  config: ContractConfig,
  only: string[] | undefined,
  reportDir: string,
  out: NodeJS.WritableStream,
  collector: Collector,
  maxWorkers: number | undefined,
): Promise<void> {
  const { startVitest } = await import('vitest/node');
  const filters = (only ?? []).map((id) => `/${toFileStem(id, 'operation')}.test.ts`);
  const savedExitCode = process.exitCode;
  const vitest = await startVitest(
    'test',
    filters,
    {
      root,
      config: VITEST_CONFIG,
      ...suiteFiles(root, generatedDir),
      watch: false,
      run: true,
      passWithNoTests: false,
      ...(o.shard ? { shard: o.shard } : {}),
      ...(maxWorkers !== undefined ? { maxWorkers } : {}),
      reporters: [...vitestReporters(o.reporters, out), collector] as never,
      outputFile: {
        junit: path.join(reportDir, VITEST_FILES.junit),
        json: path.join(reportDir, VITEST_FILES.json),
      },
    },
    { plugins: [modelFromJson(generatedDir)], test: { provide: { dataapiContract: config } } },
  );
  await vitest.close();
  process.exitCode = savedExitCode;
}

/** A description this large runs its files on one worker per core (see workersFor). */
export const LARGE_SUITE = 500;

/**
 * Workers for the suite: the config's 8 (the files mostly wait on the network and on rate-limit
 * windows), except for a large description, where each worker's own copy of the model and of the
 * validators it compiles cost hundreds of MiB and the work is CPU-bound: one worker per core
 * (GitHub's 1,223 operations: 8 workers peaked at 2.2 GiB).
 */
export function workersFor(operations: number): number | undefined {
  if (operations < LARGE_SUITE) return undefined;
  return Math.max(1, Math.min(8, os.availableParallelism()));
}

/**
 * The operations of --only, each with the variants to run: an operation id (both variants), or
 * the operationId of its explicit /demo variant or the variant's generated id (the preview only).
 */
export function selectOperations(model: ServiceModel, names: string[]): Record<string, Variant[]> {
  const byName = new Map<string, { op: string; variant?: Variant }>();
  for (const op of model.operations) {
    byName.set(op.id, { op: op.id });
    if (op.operationId) byName.set(op.operationId, { op: op.id });
    if (op.preview) {
      byName.set(op.preview.id, { op: op.id, variant: 'preview' });
      if (op.preview.operationId)
        byName.set(op.preview.operationId, { op: op.id, variant: 'preview' });
    }
  }
  const out: Record<string, Variant[]> = {};
  for (const name of names) {
    const hit = byName.get(name);
    if (!hit)
      throw new RunError(
        `unknown operation ${JSON.stringify(name)} in --only${didYouMean(name, [...byName.keys()])}. Known: ${model.operations.map((op) => op.id).join(', ')}`,
        2,
      );
    const variants = hit.variant ? [hit.variant] : (['main', 'preview'] as Variant[]);
    out[hit.op] = [...new Set([...(out[hit.op] ?? []), ...variants])];
  }
  return out;
}

/**
 * The suite's test files for vitest when they are not the project's generated/ (a `--spec` cache
 * folder under node_modules): included explicitly, and transformed rather than loaded as a
 * dependency.
 */
function suiteFiles(root: string, generatedDir: string): Record<string, unknown> {
  if (generatedDir === path.join(root, 'generated')) return {};
  const rel = path.relative(root, generatedDir).split(path.sep).join('/');
  const outside = rel.startsWith('..');
  return {
    ...(outside ? { dir: generatedDir } : {}),
    include: [`${outside ? '' : `${rel}/`}contract-tests/**/*.test.ts`],
    exclude: [],
    server: { deps: { inline: [/contract-tests\/.*\.test\.ts$/, /generated\/(model|mock)/] } },
  };
}

/** A report folder that exists as something else is bad input (exit 2), found before any request. */
async function refuseNonFolder(dir: string, flag: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory())
    throw new RunError(`${flag}: ${path.relative(process.cwd(), dir) || dir} is not a folder`, 2);
}

export async function loadModel(generatedDir: string): Promise<ServiceModel> {
  try {
    return await readModelFile(generatedDir);
  } catch (err) {
    if (err instanceof MissingModelError) throw new RunError(err.message, 2);
    throw err;
  }
}

/** The --base-url as a URL (http or https only); bad input is exit 2. */
function parseBaseUrl(baseUrl: string, redactor: Redactor): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new RunError(
      `--base-url must be an http:// or https:// URL, got ${JSON.stringify(redactor.url(baseUrl))}`,
      2,
    );
  return url;
}

/** ANSI colours on a terminal unless NO_COLOR; FORCE_COLOR (not 0) forces them. */
function colorFor(out: NodeJS.WritableStream): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return !process.env.NO_COLOR && (out as { isTTY?: boolean }).isTTY === true;
}
