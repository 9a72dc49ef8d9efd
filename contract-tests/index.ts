/**
 * `dataapi/contract`: what a generated contract-test file calls. `contractSuite(model, id)` registers
 * `describe(op.id)` with one vitest test per (variant, check), named `<check> (<variant>): ...`, so
 * vitest's own reporters (JUnit) show one test case per operation and check. Each test attaches its
 * structured CheckResult to the test's meta (`task.meta.dataapi`); the runner's reporter collects them.
 */
import { afterAll, describe, inject, it, TestRunner } from 'vitest';
import type { Operation, ServiceModel } from 'dataapi/model';
import { compileForFewValidations, findOperation, redactorFor } from 'dataapi/runtime/shared';
import { recheckViolations, runCheck } from './checks/index.ts';
import {
  lacksCredentials,
  notTestedBefore,
  staticSkip,
  staticSkipResult,
} from './checks/static-skip.ts';
import { CONFIG_KEY, configFromEnv, type ContractConfig } from './config.ts';
import { useGivenData } from './given-data.ts';
import { holdResources, releaseHeld } from './held.ts';
import { createTransport, type Transport } from './http.ts';
import { redactCheckResult } from './redact-results.ts';
import { runProbes, sendProbe, type Probe, type ProbeSet } from './probes.ts';
import { validRequests } from './requests.ts';
import { sentOf } from './recheck.ts';
import { savedRequest, type SavedRequest } from './saved.ts';
import type { FuzzStats } from './fuzz/types.ts';
import {
  CHECK_TITLES,
  CHECKS,
  PREVIEW_CHECKS,
  type CheckName,
  type CheckResult,
  type Variant,
} from './results.ts';
import { LocalScheduler, RemoteScheduler } from './scheduler.ts';
import { ChannelScheduler } from './scheduler-channel.ts';
import { Prefetcher, type Prefetched } from './prefetch.ts';

export type * from './results.ts';
export type { ContractConfig } from './config.ts';
export { CHECKS, CHECK_TITLES, PREVIEW_CHECKS, coverageOf } from './results.ts';
export { filledRequest, judgeSaved, type SavedFailure } from './saved.ts';

declare module 'vitest' {
  interface TaskMeta {
    dataapi?: CheckResult;
    /** What fuzzing did for the operation (on each of its main variant's tests). */
    dataapiFuzz?: { operation: string; stats: FuzzStats };
  }
}

/** The failure vitest shows: everything a reader needs, the key already redacted. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
  constructor(public result: CheckResult) {
    super(
      [
        `${result.check} (${result.variant}) of ${result.operation}: ${result.message}`,
        result.request ? `  request:  ${result.request.method} ${result.request.url}` : '',
        result.expected ? `  expected: ${result.expected}` : '',
        result.actual ? `  actual:   ${result.actual}` : '',
        ...result.errors.slice(0, 8).map((e) => `  - ${e}`),
        result.excerpt ? `  excerpt:  ${result.excerpt}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }
}

let transport: Transport | undefined;
let prefetcher: Prefetcher<ProbeSet> | undefined;

/**
 * The runner's scheduler, on its channel from a thread of its process (which also works out the
 * response example warnings), over HTTP from another process; without a runner, the file's own.
 */
function transportFor(config: ContractConfig): Transport {
  if (transport) return transport;
  if (config.schedulerChannel && config.schedulerPid === process.pid) {
    const channel = new ChannelScheduler(config.schedulerChannel);
    transport = {
      ...createTransport(config, channel),
      responseExampleWarnings: (op) => channel.exampleWarnings(op.id),
    };
  } else
    transport = createTransport(
      config,
      config.schedulerUrl
        ? new RemoteScheduler(config.schedulerUrl)
        : new LocalScheduler(config.budget),
    );
  return transport;
}

function readConfig(): ContractConfig | undefined {
  try {
    return inject(CONFIG_KEY) ?? configFromEnv();
  } catch {
    return configFromEnv();
  }
}

/** Registers the contract tests of one operation of the model. */
export function contractSuite(model: ServiceModel, operationId: string): void {
  // A run validates each schema a few times: compiling fast matters more than validating fast.
  compileForFewValidations();
  const op = findOperation(model, operationId);
  const config = readConfig();
  useGivenData(model, config?.testData);
  // Without a target (vitest run outside `dataapi contract`), the suite is listed but skipped.
  const suite = config ? describe : describe.skip;
  if (config) holdFor(model, config);
  suite(op.id, () => {
    for (const variant of variantsOf(op, config)) {
      const checks = checksOf(variant, config);
      const prefetched =
        config && runs(op, checks, config) ? setOf(model, op, variant, config) : undefined;
      for (const check of checks) {
        const name = `${check} (${variant}): ${CHECK_TITLES[check]}`;
        const known = config && knownSkip(model, op, variant, check, checks, config);
        if (known) {
          const result = staticSkipResult(op.id, variant, check, known.reason, known.code);
          it(name, { skip: true, meta: { dataapi: result } }, () => {});
          noteStaticSkip(result.message);
          continue;
        }
        it(name, async (ctx) => {
          const cfg = config!;
          const probeSet = await prefetched!.get();
          if (probeSet.fuzz) ctx.task.meta.dataapiFuzz = { operation: op.id, stats: probeSet.fuzz };
          const checkCtx = { model, op, set: probeSet, config: cfg };
          await recheckViolations(check, checkCtx);
          // Exchanges are redacted as they arrive; this pass also covers text the checks composed.
          const save = cfg.saveFailures ? (p: Probe) => saveOf(p, cfg.appkey) : undefined;
          const result = redactCheckResult(
            runCheck(check, checkCtx, save),
            redactorFor([cfg.appkey]),
          );
          ctx.task.meta.dataapi = result;
          if (result.status === 'skipped') ctx.skip(result.message);
          if (result.status === 'failed') throw new ContractViolation(result);
        });
      }
    }
    // The worker's last operation that runs a test: what the user's test data had the suite
    // create is deleted after it (held.ts). A file whose tests are all skipped runs no hook.
    if (config?.order && lastRunning(model, config) === op.id) afterAll(() => releaseHeld(model));
  });
}

/** A test's result known before it runs (not tested, nothing to judge), or undefined. */
function knownSkip(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  check: CheckName,
  checks: CheckName[],
  config: ContractConfig,
): { reason: string; code?: NonNullable<ReturnType<typeof notTestedBefore>>['code'] } | undefined {
  // What the run lacks (credentials, permission to write): not tested, never run.
  const lacking = notTestedBefore(check, op, variant, config);
  if (lacking) return { reason: lacking.reason, ...(lacking.code ? { code: lacking.code } : {}) };
  // Known now to have nothing to judge: a skipped test carrying its result, never run.
  const known = runs(op, checks, config) && staticSkip(check, model, op, config);
  return known ? { reason: known } : undefined;
}

/** The last operation of the worker's order with a test that runs. */
function lastRunning(model: ServiceModel, config: ContractConfig): string | undefined {
  return (config.order ?? []).findLast((id) => {
    const op = model.operations.find((o) => o.id === id);
    return (
      op !== undefined &&
      variantsOf(op, config).some((v) => {
        const checks = checksOf(v, config);
        return checks.some((c) => !knownSkip(model, op, v, c, checks, config));
      })
    );
  });
}

/**
 * How the worker deletes what the user's test data had it create (held.ts): at the end when it
 * knows its order, else as soon as no operation holds it.
 */
function holdFor(model: ServiceModel, config: ContractConfig): void {
  holdResources(
    model,
    async (r) => {
      const remover = r.remover;
      const spec = remover && validRequests(model, remover)[0];
      if (!remover || !spec) return;
      await sendProbe(
        model,
        transportFor(config),
        remover,
        'main',
        'lifecycle',
        remover,
        { ...spec, path: { ...spec.path, ...r.path } },
        `clean up what ${r.how}`,
        { keyMode: 'key' },
      );
    },
    config.order !== undefined,
  );
}

function variantsOf(op: Operation, config: ContractConfig | undefined): Variant[] {
  return ((op.preview ? ['main', 'preview'] : ['main']) as Variant[]).filter(
    (v) => !config?.variants?.[op.id] || config.variants[op.id]!.includes(v),
  );
}

function checksOf(variant: Variant, config: ContractConfig | undefined): CheckName[] {
  return (variant === 'main' ? CHECKS : PREVIEW_CHECKS).filter(
    (c) => !config?.checks || config.checks.includes(c),
  );
}

/**
 * The reason of the test just registered as skipped, for vitest's own reporters (verbose, tap,
 * ...: `[reason]` after its name, as `ctx.skip(reason)` gives): a test that never runs gets no
 * note otherwise. `note` is in the result vitest's reporters read, not in its declared type
 * (static-skip.test.ts holds it to the verbose reporter's output).
 */
function noteStaticSkip(reason: string): void {
  const last = TestRunner.getCurrentSuite().tasks.at(-1);
  if (last?.type === 'test') last.result = { state: 'skip', note: reason } as typeof last.result;
}

/** Whether a variant sends anything (a writing operation without --allow-writes is skipped). */
function runs(op: Operation, checks: CheckName[], config: ContractConfig): boolean {
  return checks.length > 0 && (!op.writes || config.allowWrites);
}

/**
 * The variant's probe set, started by its first test or earlier: with the run's order known, every
 * operation of the worker is registered up front, and its requests start as others finish.
 */
function setOf(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  config: ContractConfig,
): Prefetched<ProbeSet> {
  const start = (o: Operation, v: Variant) => () =>
    probesWithFuzz(model, o, v, transportFor(config));
  if (!prefetcher) {
    prefetcher = new Prefetcher(config.operationsAtOnce ?? 1);
    for (const id of config.order ?? []) {
      const next = model.operations.find((o) => o.id === id);
      for (const v of next ? variantsOf(next, config) : [])
        if (runs(next!, checksOf(v, config), config)) prefetcher.add(`${id} ${v}`, start(next!, v));
    }
  }
  return prefetcher.add(`${op.id} ${variant}`, start(op, variant));
}

/** The fixed requests, then (--fuzz, main variant) the generated ones. */
async function probesWithFuzz(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  t: Transport,
): Promise<ProbeSet> {
  const fuzz = t.config.fuzz;
  // Without credentials a secured operation is not tested: nothing to fuzz either.
  if (!fuzz || variant !== 'main' || lacksCredentials(op, variant, t.config))
    return runProbes(model, op, variant, t);
  // Loaded when fuzzing only: the sampler's arbitraries (fast-check). Fuzzing runs under the
  // operation's hold on a resource the test data names (runProbes' `then`).
  const { fuzzOperation } = await import('./fuzz/run.ts');
  return runProbes(model, op, variant, t, (set) => fuzzOperation(model, op, set, t, fuzz));
}

/** The failing request of a check for --save-failures (the key replaced by a marker). */
function saveOf(probe: Probe, appkey: string): SavedRequest | undefined {
  const req = sentOf(probe);
  return req ? savedRequest(probe, req, appkey) : undefined;
}
