/**
 * The contract runner: picks the target (a deployment, or the embedded mock on an ephemeral port),
 * serves the shared scheduler, runs the generated suite through vitest's Node API with the target
 * provided to the workers, collects each test's CheckResult and writes the run's results file.
 */
import { mkdir, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServiceModel } from 'dataapi/model';
import { redact } from 'dataapi/runtime/shared';
import { toFileStem } from '../model/identifiers.ts';
import type { ContractConfig } from './config.ts';
import { Collector } from './collector.ts';
import { coverageOf, type ContractRunResult } from './results.ts';
import { LocalScheduler, serveScheduler } from './scheduler.ts';
import { startEmbeddedMock } from './target.ts';
import { redactor, vitestReporters, VITEST_FILES, writeReports } from './reports/index.ts';

export interface RunOptions {
  /** Project root: where generated/ is (default: cwd). */
  root?: string;
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
}

export interface RunOutcome {
  exitCode: number;
  result?: ContractRunResult;
  resultsFile?: string;
}

/** A clear, expected failure (unknown operation, unreachable target): message, no stack. */
export class RunError extends Error {
  constructor(
    message: string,
    public exitCode = 1,
  ) {
    super(message);
  }
}

const DEFAULT_MOCK_KEY = 'dataapi-contract-key';

export async function runContract(o: RunOptions): Promise<RunOutcome> {
  const root = path.resolve(o.root ?? process.cwd());
  const out = o.out ?? process.stdout;
  const started = Date.now();
  const model = await loadModel(root);
  const only = o.only?.filter(Boolean);
  for (const id of only ?? [])
    if (!model.operations.some((op) => op.id === id))
      throw new RunError(
        `unknown operation ${JSON.stringify(id)} in --only (known: ${model.operations.map((op) => op.id).join(', ')})`,
        2,
      );

  let baseUrl = o.baseUrl?.replace(/\/+$/, '');
  let appkey = o.appkey ?? '';
  const closers: (() => Promise<void>)[] = [];
  try {
    let embedded = false;
    if (baseUrl === undefined) {
      appkey ||= DEFAULT_MOCK_KEY;
      const mock = await startEmbeddedMock(root, appkey);
      closers.push(mock.close);
      baseUrl = mock.url;
      embedded = true;
    } else {
      await assertReachable(baseUrl, o.timeoutMs, appkey);
      if (!appkey)
        process.stderr.write(
          'dataapi contract: DATAAPI_APPKEY is not set: requests that need a key will be refused\n',
        );
    }

    const scheduler = new LocalScheduler(o.budget);
    const served = await serveScheduler(scheduler);
    closers.push(served.close);
    const config: ContractConfig = {
      baseUrl,
      appkey,
      timeoutMs: o.timeoutMs,
      // The embedded mock is ours to write to.
      allowWrites: o.allowWrites || embedded,
      maxRetries: 3,
      maxRetryWaitMs: 30_000,
      schedulerUrl: served.url,
      ...(o.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: o.maxResponseTimeMs } : {}),
      ...(o.budget !== undefined ? { budget: o.budget } : {}),
    };

    const collector = new Collector([appkey]);
    const { startVitest } = await import('vitest/node');
    const filters = (only ?? []).map((id) => `/${toFileStem(id, 'operation')}.test.ts`);
    const reportDir = path.resolve(root, o.reportDir ?? 'reports');
    const reporters = vitestReporters(o.reporters, out);
    const savedExitCode = process.exitCode;
    const vitest = await startVitest(
      'test',
      filters,
      {
        root,
        config: path.join(root, 'contract-tests', 'vitest.config.ts'),
        watch: false,
        run: true,
        passWithNoTests: false,
        ...(o.shard ? { shard: o.shard } : {}),
        reporters: [...reporters, collector] as never,
        outputFile: {
          junit: path.join(reportDir, VITEST_FILES.junit),
          json: path.join(reportDir, VITEST_FILES.json),
        },
      },
      { test: { provide: { dataapiContract: config } } },
    );
    await vitest.close();
    process.exitCode = savedExitCode;

    const results = collector.sorted();
    const summary = { passed: 0, failed: 0, skipped: 0, requests: scheduler.requests };
    for (const r of results) summary[r.status]++;
    const errors = [...collector.errors];
    if (results.length === 0 && errors.length === 0)
      errors.push(
        'no contract test ran (is generated/contract-tests/ there? run `dataapi generate`)',
      );
    const result: ContractRunResult = {
      version: 1,
      target: { baseUrl: redact(baseUrl, [appkey]), embeddedMock: embedded },
      options: {
        ...(only ? { only } : {}),
        ...(o.shard ? { shard: o.shard } : {}),
        timeoutMs: o.timeoutMs,
        allowWrites: config.allowWrites,
        ...(o.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: o.maxResponseTimeMs } : {}),
        ...(o.budget !== undefined ? { budget: o.budget } : {}),
      },
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      summary,
      budgetExhausted: scheduler.exhausted,
      results,
      coverage: coverageOf(results),
      errors,
    };
    const resultsFile = path.resolve(
      root,
      o.resultsFile ??
        process.env.DATAAPI_CONTRACT_RESULTS ??
        path.join(reportDir, 'contract-results.json'),
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });
    // Also the key's escaped forms and a key cut short by an excerpt (reports/report.ts).
    await writeFile(resultsFile, redactor([appkey])(JSON.stringify(result, null, 2)) + '\n');
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
    return { exitCode: summary.failed > 0 || errors.length > 0 ? 1 : 0, result, resultsFile };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}

async function loadModel(root: string): Promise<ServiceModel> {
  const file = path.join(root, 'generated', 'model.ts');
  try {
    await access(file);
  } catch {
    throw new RunError(
      `${path.relative(process.cwd(), file)} is missing: run \`dataapi generate\` first`,
      2,
    );
  }
  return ((await import(pathToFileURL(file).href)) as { model: ServiceModel }).model;
}

/** Any HTTP answer counts as reachable; a refused connection or DNS failure does not. */
async function assertReachable(baseUrl: string, timeoutMs: number, appkey: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RunError(`--base-url ${JSON.stringify(redact(baseUrl, [appkey]))} is not a URL`, 2);
  }
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.body?.cancel();
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string; message?: string } };
    const why =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? String(err));
    throw new RunError(
      `cannot reach the target ${redact(baseUrl, [appkey])}: ${redact(why, [appkey])}. Nothing was tested.`,
    );
  }
}

/** ANSI colours on a terminal unless NO_COLOR; FORCE_COLOR (not 0) forces them. */
function colorFor(out: NodeJS.WritableStream): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return !process.env.NO_COLOR && (out as { isTTY?: boolean }).isTTY === true;
}
