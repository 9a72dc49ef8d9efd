/**
 * The contract runner: picks the target (a deployment, or the embedded mock on an ephemeral port),
 * serves the shared scheduler, runs the generated suite through vitest's Node API with the target
 * provided to the workers, collects each test's CheckResult and writes the run's results file.
 */
import path from 'node:path';
import { severityOf, toFileStem, type SeveritySettings, type ServiceModel } from 'dataapi/model';
import { findOperation, keyWarning, redactorFor, type Redactor } from 'dataapi/runtime/shared';
import { responseExampleWarnings } from './example-warnings.ts';
import { RETRY_DEFAULTS, type ContractConfig } from './config.ts';
import { Collector } from './collector.ts';
import { coverageOf, type CheckName, type ContractRunResult, type Variant } from './results.ts';
import { RunError } from './run-error.ts';
import { readGivenData, type GivenData } from './given-data.ts';
import {
  baseUrlFor,
  colorFor,
  loadModel,
  parseBaseUrl,
  refuseNonFolder,
  selectOperations,
} from './run-input.ts';
import { unreachable } from './reachable.ts';
import { LocalScheduler, serveScheduler } from './scheduler.ts';
import { serveSchedulerChannel } from './scheduler-channel.ts';
import { startEmbeddedMock } from './target.ts';
import { modelWarnings, RunDiagnostics, type DescriptionWarning } from './warnings.ts';
import { chooseSeed, writeReplays } from './fuzz/replay-file.ts';
import { writeReports } from './reports/index.ts';
import { findingsOfCheck } from './findings-of-result.ts';
import { runSuite } from './run-suite.ts';
import { descriptionIdentity } from './description-identity.ts';

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
  /** --severity / contract.severity: a check's or a warning code's severity for this run. */
  severity?: SeveritySettings;
  /** The description file, where the SARIF report locates its results (default spec/openapi.yaml). */
  descriptionFile?: string;
  /** --test-data FILE: values the valid requests send (given-data.ts). */
  testData?: string;
}

export interface RunOutcome {
  exitCode: number;
  result?: ContractRunResult;
  resultsFile?: string;
}

export { RunError };
export { loadModel, selectOperations };

const DEFAULT_MOCK_KEY = 'dataapi-contract-key';

/** One run: what its steps share. `sink` collects what the run finds besides the tests' results. */
interface Run {
  o: RunOptions;
  root: string;
  out: NodeJS.WritableStream;
  started: number;
  generatedDir: string;
  model: ServiceModel;
  selection: Record<string, Variant[]> | undefined;
  only: string[] | undefined;
  reportDir: string;
  resultsFile: string;
  redactor: Redactor;
  /** Closed in reverse order when the run ends, however it ends. */
  closers: (() => Promise<void>)[];
  sink: RunDiagnostics;
  /** The user's test data, checked against the description. */
  testData?: GivenData;
}

/** Where the run sends its requests (a deployment, or the embedded mock it started). */
interface Target {
  baseUrl: string;
  appkey: string;
  keyProvided: boolean;
  embedded: boolean;
}

type Fuzz = { runs: number; seed: number } | undefined;

export async function runContract(o: RunOptions): Promise<RunOutcome> {
  const run = await prepareRun(o);
  try {
    const target = await pickTarget(run);
    warnAboutKey(target);
    const fuzz = announceFuzz(run);
    const scheduler = new LocalScheduler(o.budget);
    const config = contractConfig(run, target, fuzz);
    const collector = new Collector([target.appkey]);
    const empty = hasNoOperations(run.model);
    if (run.sink.errors.length === 0 && !empty)
      await runSuiteOnScheduler(run, scheduler, config, collector);
    const results = collectFindings(run, collector, scheduler, empty);
    const result = buildResult(run, { target, config, fuzz, scheduler, collector, results });
    await writeOutputs(run, result, target, fuzz);
    return { exitCode: exitCodeOf(run, result), result, resultsFile: run.resultsFile };
  } finally {
    for (const close of run.closers.reverse()) await close().catch(() => undefined);
  }
}

/** Paths, the model and the --only selection; bad input (exit 2) is refused before any request. */
async function prepareRun(o: RunOptions): Promise<Run> {
  const root = path.resolve(o.root ?? process.cwd());
  const started = Date.now();
  const generatedDir = path.resolve(root, o.generatedDir ?? 'generated');
  const model = await loadModel(generatedDir);
  const selection = o.only?.length ? selectOperations(model, o.only) : undefined;
  const reportDir = path.resolve(root, o.reportDir ?? 'reports');
  const resultsFile = path.resolve(
    root,
    o.resultsFile ??
      process.env.DATAAPI_CONTRACT_RESULTS ??
      path.join(reportDir, 'contract-results.json'),
  );
  await refuseNonFolder(reportDir, '--report-dir');
  await refuseNonFolder(path.dirname(resultsFile), '--results');
  const testData = o.testData
    ? await readGivenData(path.resolve(root, o.testData), model)
    : undefined;
  return {
    ...(testData ? { testData } : {}),
    o,
    root,
    out: o.out ?? process.stdout,
    started,
    generatedDir,
    model,
    selection,
    only: selection ? Object.keys(selection) : undefined,
    reportDir,
    resultsFile,
    redactor: redactorFor([o.appkey ?? '']),
    closers: [],
    sink: new RunDiagnostics(o.severity),
  };
}

/** The embedded mock when no --base-url is given; an unreachable deployment is the run's error. */
async function pickTarget(run: Run): Promise<Target> {
  const { o, redactor } = run;
  const given = o.appkey ?? '';
  const keyProvided = given !== '';
  if (o.baseUrl === undefined) {
    const appkey = given || DEFAULT_MOCK_KEY;
    const mock = await startEmbeddedMock(run.generatedDir, appkey, run.model);
    run.closers.push(mock.close);
    return { baseUrl: mock.url, appkey, keyProvided, embedded: true };
  }
  parseBaseUrl(o.baseUrl, redactor);
  const { baseUrl, joined } = baseUrlFor(o.baseUrl, run.model);
  if (joined !== undefined)
    process.stderr.write(
      `dataapi contract: the description's server URL has the path ${joined}: requests go to ${redactor.url(baseUrl)}/... (give --base-url with a path to send them elsewhere)\n`,
    );
  const why = await unreachable(parseBaseUrl(baseUrl, redactor), o.timeoutMs);
  if (why !== undefined) {
    const message = `cannot reach the target ${redactor.url(baseUrl)}: ${redactor.text(why)}. Nothing was tested.`;
    process.stderr.write(`dataapi contract: ${message}\n`);
    run.sink.error(message);
  } else if (!keyProvided) {
    // One line up front, and only where the description declares security at all.
    const secured = run.model.operations.filter(
      (op) => op.auth.required && op.auth.transports.length > 0,
    ).length;
    if (secured > 0)
      process.stderr.write(
        `dataapi contract: no credentials (DATAAPI_APPKEY is not set): ${secured} of ${run.model.operations.length} operations need one and are not tested (no-credentials), only their refusal of no key and a wrong key\n`,
      );
  }
  return { baseUrl, appkey: given, keyProvided, embedded: false };
}

function warnAboutKey(target: Target): void {
  const warning = target.keyProvided ? keyWarning(target.appkey) : undefined;
  if (warning) process.stderr.write(`dataapi contract: ${warning}\n`);
}

/** --fuzz: the seed (chosen here when not given) is printed so the run can be repeated. */
function announceFuzz(run: Run): Fuzz {
  const { o, out } = run;
  if (o.fuzz === undefined) return undefined;
  const fuzz = { runs: o.fuzz, seed: o.seed ?? chooseSeed() };
  out.write(
    `dataapi contract: fuzzing with --seed ${fuzz.seed}: ${fuzz.runs} valid and ${fuzz.runs} invalid generated requests per operation${o.seed === undefined ? ' (seed chosen for this run; repeat it with --seed)' : ''}\n`,
  );
  return fuzz;
}

/**
 * Operations under way at once (each still paced by its own limits): a deployment gets as many as
 * the eight workers of earlier releases sent; the embedded mock, which is ours, more.
 */
const DEPLOYMENT_AT_ONCE = 8;
const EMBEDDED_AT_ONCE = 32;

/** What the workers are given (vitest's provide): the target, the key and the run's options. */
function contractConfig(run: Run, target: Target, fuzz: Fuzz): ContractConfig {
  const { o, selection } = run;
  return {
    baseUrl: target.baseUrl,
    appkey: target.appkey,
    timeoutMs: o.timeoutMs,
    // The embedded mock is ours to write to.
    allowWrites: o.allowWrites || target.embedded,
    ...RETRY_DEFAULTS,
    ...(selection ? { variants: selection } : {}),
    ...(o.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: o.maxResponseTimeMs } : {}),
    ...(o.budget !== undefined ? { budget: o.budget } : {}),
    ...(fuzz ? { fuzz } : {}),
    ...(o.checks ? { checks: o.checks } : {}),
    ...(o.severity ? { severity: o.severity } : {}),
    ...(o.saveFailures !== undefined ? { saveFailures: true } : {}),
    ...(run.testData ? { testData: run.testData } : {}),
    operationsAtOnce: target.embedded ? EMBEDDED_AT_ONCE : DEPLOYMENT_AT_ONCE,
  };
}

/** A description of webhooks only (3.1) describes no request to send: nothing to test. */
function hasNoOperations(model: ServiceModel): boolean {
  if (model.operations.length > 0) return false;
  process.stderr.write(
    `dataapi contract: the description has no operations${(model.webhooks ?? []).length > 0 ? ` (only ${model.webhooks.length} webhooks, which the API sends)` : ''}: nothing to test\n`,
  );
  return true;
}

/** Serves the shared scheduler to the workers, then runs the suite. */
async function runSuiteOnScheduler(
  run: Run,
  scheduler: LocalScheduler,
  config: ContractConfig,
  collector: Collector,
): Promise<void> {
  const served = await serveScheduler(scheduler);
  run.closers.push(served.close);
  config.schedulerUrl = served.url;
  // Threads of this process ask on a channel instead (scheduler-channel.ts); the URL stays for others.
  config.schedulerChannel = `dataapi-scheduler-${process.pid}-${served.url.split(':').at(-1)}`;
  config.schedulerPid = process.pid;
  // The embedded mock's model too (startEmbeddedMock): its Ajv has compiled (or will compile) the
  // same response schemas, so each is compiled once in the run, not again in a worker.
  const model = run.model;
  const closeChannel = serveSchedulerChannel(scheduler, config.schedulerChannel, (id) =>
    responseExampleWarnings(model, findOperation(model, id)),
  );
  run.closers.push(async () => closeChannel());
  const stems = new Map(run.model.operations.map((op) => [toFileStem(op.id, 'operation'), op.id]));
  await runSuite(run, config, collector, stems);
}

/** The tests' results; their warnings, the model's findings and the run's errors go to the sink. */
function collectFindings(
  run: Run,
  collector: Collector,
  scheduler: LocalScheduler,
  empty: boolean,
): ContractRunResult['results'] {
  const results = collector.sorted();
  // A warning code the user turned off is not listed (--severity CODE=off).
  const kept = (w: DescriptionWarning) => severityOf(w.code, run.o.severity) !== 'off';
  run.sink.warn(
    ...[...modelWarnings(run.model), ...results.flatMap((r) => r.warnings ?? [])].filter(kept),
  );
  // The same as the one record: the model's findings (their severity decided again, on the run's
  // scale), then every check's, as its worker's sink decided them.
  for (const { severity: _s, ...finding } of run.model.findings ?? [])
    run.sink.findings.add(finding);
  for (const r of results) run.sink.findings.addDecided(findingsOfCheck(r));
  run.sink.error(...collector.errors, ...scheduler.breakers.notes());
  if (results.length === 0 && run.sink.errors.length === 0 && !empty)
    run.sink.error(
      'no contract test ran (is generated/contract-tests/ there? run `dataapi generate`)',
    );
  return results;
}

/** The run's results file (and every report's input). */
function buildResult(
  run: Run,
  parts: {
    target: Target;
    config: ContractConfig;
    fuzz: Fuzz;
    scheduler: LocalScheduler;
    collector: Collector;
    results: ContractRunResult['results'];
  },
): ContractRunResult {
  const { o, only, sink } = run;
  const { target, config, fuzz, scheduler, collector, results } = parts;
  const warnings = sink.warnings();
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
  return {
    version: 1,
    target: {
      baseUrl: target.baseUrl,
      embeddedMock: target.embedded,
      keyProvided: target.keyProvided,
    },
    description: descriptionIdentity(run.model),
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
    startedAt: new Date(run.started).toISOString(),
    durationMs: Date.now() - run.started,
    summary,
    budgetExhausted: scheduler.exhausted,
    results,
    coverage: coverageOf(results),
    errors: sink.errors,
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
    findings: sink.findings.sorted(),
  };
}

/** The fuzzing replays, then the reports; the results file is the JSON report (values redacted). */
async function writeOutputs(
  run: Run,
  result: ContractRunResult,
  target: Target,
  fuzz: Fuzz,
): Promise<void> {
  const { o, root, reportDir, redactor } = run;
  if (fuzz)
    await writeReplays(result, {
      dir: path.join(reportDir, 'fuzz'),
      root,
      redactor,
      ...(o.spec !== undefined ? { spec: o.spec } : {}),
      ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
      allowWrites: o.allowWrites,
    });
  if (o.saveFailures !== undefined) await saveFailures(run, result, o.saveFailures);
  await writeReports(result, {
    model: run.model,
    ...(o.reporters ? { reporters: o.reporters } : {}),
    dir: reportDir,
    root,
    out: run.out,
    secrets: [target.appkey],
    resultsFile: run.resultsFile,
    color: colorFor(run.out),
    ...(o.descriptionFile !== undefined ? { descriptionFile: o.descriptionFile } : {}),
  });
}

/** --save-failures DIR: each failure as a vitest test that replays it. */
async function saveFailures(run: Run, result: ContractRunResult, dir: string): Promise<void> {
  const { root, out } = run;
  // Loaded with --save-failures only: it brings prettier and the judges.
  const { writeSavedFailures } = await import('./saved-files.ts');
  const saved = await writeSavedFailures(result, {
    dir: path.resolve(root, dir),
    model: run.model,
    redactor: run.redactor,
  });
  if (saved.length > 0)
    out.write(
      `dataapi contract: ${saved.length} failure${saved.length === 1 ? '' : 's'} saved as tests in ${path.relative(root, path.resolve(root, dir)) || '.'}\n`,
    );
}

/** 1 when a test failed, the run had an error, or (under --strict) the description a warning. */
function exitCodeOf(run: Run, result: ContractRunResult): number {
  const failed =
    result.summary.failed > 0 ||
    result.errors.length > 0 ||
    (run.o.strict === true && result.warnings.length > 0) ||
    // A warning code the user set to failure (--severity CODE=failure).
    result.warnings.some((w) => severityOf(w.code, run.o.severity) === 'failure');
  return failed ? 1 : 0;
}
