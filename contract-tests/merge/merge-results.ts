/**
 * Several runs' results as one: the shards of `contract --shard i/n`, proxies behind one load
 * balancer. A check run by several inputs is one check of the merged run, and everything counted
 * (summary, coverage, warnings) is counted again from the merged results, never added up: an
 * operation two shards both reached is covered once, a warning two proxies both gave is listed
 * once (deduplicated as one run does: by code, pointer and message, since one pointer such as
 * `/paths` can hold several findings). Only what each run did on its own (requests sent, time
 * spent) is summed.
 */
import { CHECKS, coverageOf, type CheckResult, type ContractRunResult } from '../results.ts';
import { Diagnostics, type Finding } from 'dataapi/model';
import { findingsOfCheck, findingsOfRun, isNotTested, isWarning } from '../findings-of-result.ts';
import { dedupeWarnings } from '../warnings.ts';
import { mergeFuzz } from './merge-fuzz.ts';

/** Each item once, by its JSON. */
const unique = <T>(list: T[]): T[] => {
  const seen = new Set<string>();
  return list.filter((x) => {
    const k = JSON.stringify(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/**
 * The results of one (operation, variant, check) from several runs: failed anywhere is failed;
 * else passed anywhere is passed (a shard that skipped it did not test it, another did); else
 * skipped. The message, request and detail are the deciding result's.
 */
export function combineChecks(group: CheckResult[]): CheckResult {
  const deciding =
    group.find((r) => r.status === 'failed') ??
    group.find((r) => r.status === 'passed') ??
    group[0]!;
  if (group.length === 1) return deciding;
  const failed = group.filter((r) => r.status === 'failed');
  const warnings = dedupeWarnings(group.flatMap((r) => r.warnings ?? []));
  const faults = unique(group.flatMap((r) => r.toolkitFaults ?? []));
  // The deciding result's own message, request and detail (a not-tested reason only if skipped).
  const { warnings: _w, toolkitFaults: _t, findings: _f, findingsNotKept: _n, ...rest } = deciding;
  // The record likewise: every failing run's failures, every run's warnings and toolkit faults,
  // and what was not tested only as the deciding result's; each once.
  const findings = new Diagnostics();
  for (const r of group)
    findings.addDecided(findingsOfCheck(r).filter((f) => !isNotTested(f) || r === deciding));
  // Each proxy counted what it did not keep: the merged check counts them all.
  const notKept = group.reduce((n, r) => n + (r.findingsNotKept ?? 0), 0);
  return {
    ...rest,
    // Every failing run's violations, each once.
    errors: failed.length > 0 ? [...new Set(failed.flatMap((r) => r.errors))] : deciding.errors,
    durationMs: group.reduce((n, r) => n + r.durationMs, 0),
    waitedMs: group.reduce((n, r) => n + r.waitedMs, 0),
    exchanges: group.flatMap((r) => r.exchanges),
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(faults.length > 0 ? { toolkitFaults: faults } : {}),
    findings: [...findings.all],
    ...(notKept > 0 ? { findingsNotKept: notKept } : {}),
  };
}

/** Results in the runner's order: operation, main before preview, then the checks' order. */
function sortResults(results: CheckResult[]): CheckResult[] {
  const order = (r: CheckResult) => CHECKS.indexOf(r.check);
  return results.sort(
    (a, b) =>
      a.operation.localeCompare(b.operation, 'en') ||
      (a.variant === b.variant ? 0 : a.variant === 'main' ? -1 : 1) ||
      order(a) - order(b),
  );
}

/** The shards an input ran (`2/4`; a merged input's `1/4,3/4`: each). */
export function shardsOf(r: ContractRunResult): string[] {
  return r.options.shard?.split(',') ?? [];
}

/**
 * The shard of the merged run: none when the inputs make up every shard of one split (or one
 * input ran unsharded: its scope is the whole description), else the shards it holds (`1/4,3/4`),
 * so coverage stays scoped to what ran.
 */
function mergedShard(inputs: ContractRunResult[]): string | undefined {
  if (inputs.some((r) => r.options.shard === undefined)) return undefined;
  const parts = [...new Set(inputs.flatMap(shardsOf))].sort(
    (a, b) => Number(a.split('/')[0]) - Number(b.split('/')[0]),
  );
  const total = Number(parts[0]!.split('/')[1]);
  return parts.length === total ? undefined : parts.join(',');
}

/** A list option of the merged run: every input's together, or none when one input had none. */
function unionOf<T>(lists: (T[] | undefined)[]): T[] | undefined {
  if (lists.some((l) => l === undefined)) return undefined;
  return [...new Set(lists.flatMap((l) => l!))];
}

function mergedOptions(inputs: ContractRunResult[]): ContractRunResult['options'] {
  // The first input's fuzzing and response-time settings; the rest is worked out from all.
  const { shard: _s, only: _o, checks: _c, budget: _b, strict: _t, ...first } = inputs[0]!.options;
  const shard = mergedShard(inputs);
  const only = unionOf(inputs.map((r) => r.options.only));
  const checks = unionOf(inputs.map((r) => r.options.checks));
  const budgets = inputs.map((r) => r.options.budget).filter((b) => b !== undefined);
  return {
    ...first,
    ...(shard !== undefined ? { shard } : {}),
    ...(only !== undefined ? { only } : {}),
    ...(checks !== undefined
      ? { checks: checks.sort((a, b) => CHECKS.indexOf(a) - CHECKS.indexOf(b)) }
      : {}),
    ...(budgets.length > 0 ? { budget: budgets.reduce((n, b) => n + b, 0) } : {}),
    timeoutMs: Math.max(...inputs.map((r) => r.options.timeoutMs)),
    allowWrites: inputs.every((r) => r.options.allowWrites),
    ...(inputs.some((r) => r.options.strict) ? { strict: true } : {}),
  };
}

function mergedTarget(inputs: ContractRunResult[]): ContractRunResult['target'] {
  const urls = [...new Set(inputs.map((r) => r.target.baseUrl))];
  const embedded = inputs.every((r) => r.target.embeddedMock);
  const keys = inputs.map((r) => r.target.keyProvided);
  return {
    // Embedded mocks each listened on a port of their own: the first names them all.
    baseUrl: embedded ? urls[0]! : urls.join(', '),
    embeddedMock: embedded,
    ...(keys.every((k) => k !== undefined) ? { keyProvided: keys.every(Boolean) } : {}),
  };
}

/** The merged run; the inputs are taken as compatible (inputs.ts refuses those that are not). */
export function mergeResults(inputs: ContractRunResult[]): ContractRunResult {
  if (inputs.length === 0) throw new Error('mergeResults: no results to merge');
  const groups = new Map<string, CheckResult[]>();
  for (const input of inputs)
    for (const r of input.results) {
      const key = `${r.operation}\u0000${r.variant}\u0000${r.check}`;
      const group = groups.get(key);
      if (group) group.push(r);
      else groups.set(key, [r]);
    }
  const results = sortResults([...groups.values()].map(combineChecks));
  const warnings = dedupeWarnings(inputs.flatMap((r) => r.warnings));
  const toolkitFaults = results.flatMap((r) => r.toolkitFaults ?? []);
  const summary = {
    passed: 0,
    failed: 0,
    skipped: 0,
    // Each run sent its own requests: these add up.
    requests: inputs.reduce((n, r) => n + r.summary.requests, 0),
    warnings: warnings.length,
    toolkitFaults: toolkitFaults.length,
  };
  for (const r of results) summary[r.status]++;
  const fuzz = mergeFuzz(inputs.map((r) => r.fuzz));
  const description = inputs.find((r) => r.description)?.description;
  const startedAt = inputs.map((r) => r.startedAt).sort()[0]!;
  const notKept = inputs.reduce((n, r) => n + (r.findingsNotKept ?? 0), 0);
  return {
    version: 1,
    target: mergedTarget(inputs),
    ...(description ? { description } : {}),
    options: mergedOptions(inputs),
    startedAt,
    durationMs: inputs.reduce((n, r) => n + r.durationMs, 0),
    summary,
    budgetExhausted: inputs.some((r) => r.budgetExhausted),
    results,
    coverage: coverageOf(results),
    errors: [...new Set(inputs.flatMap((r) => r.errors))],
    warnings,
    ...(fuzz ? { fuzz } : {}),
    ...(toolkitFaults.length > 0 ? { toolkitFaults } : {}),
    findings: mergedFindings(inputs, results),
    ...(notKept > 0 ? { findingsNotKept: notKept } : {}),
  };
}

/**
 * The merged run's findings, worked out again: the description's warnings each input listed (a
 * model's findings are no check's), then the merged checks' own findings; each once, in the
 * stable order.
 */
function mergedFindings(inputs: ContractRunResult[], results: CheckResult[]): Finding[] {
  const sink = new Diagnostics();
  for (const input of inputs) sink.addDecided(findingsOfRun(input).filter(isWarning));
  for (const r of results) sink.addDecided(findingsOfCheck(r));
  return sink.sorted();
}
