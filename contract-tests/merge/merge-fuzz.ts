/**
 * What fuzzing did, over several runs: shards fuzz operations of their own, so the operations'
 * entries are put side by side; an operation fuzzed by two runs adds up what each sent, and its
 * coverage is what either exercised.
 */
import type { FuzzCoverageData, FuzzRunSummary, FuzzStats } from '../results.ts';

const union = <T>(a: T[], b: T[]): T[] => {
  const seen = new Set(a.map((x) => JSON.stringify(x)));
  return [...a, ...b.filter((x) => !seen.has(JSON.stringify(x)))];
};

function mergeCoverage(a: FuzzCoverageData, b: FuzzCoverageData): FuzzCoverageData {
  const presence = { ...a.presence };
  for (const [field, p] of Object.entries(b.presence)) {
    const q = presence[field];
    presence[field] = q
      ? { required: q.required, present: q.present + p.present, absent: q.absent + p.absent }
      : p;
  }
  const enums = { ...a.enums };
  for (const [field, e] of Object.entries(b.enums)) {
    const f = enums[field];
    enums[field] = f ? { declared: f.declared, sent: union(f.sent, e.sent) } : e;
  }
  const boundaries = { ...a.boundaries };
  for (const [field, x] of Object.entries(b.boundaries)) {
    const y = boundaries[field];
    boundaries[field] = y ? { declared: y.declared, hit: union(y.hit, x.hit) } : x;
  }
  return { presence, enums, boundaries };
}

function mergeStats(a: FuzzStats, b: FuzzStats): FuzzStats {
  const stopped = a.stopped ?? b.stopped;
  return {
    seed: a.seed,
    runs: {
      valid: a.runs.valid + b.runs.valid,
      invalid: a.runs.invalid + b.runs.invalid,
      link: a.runs.link + b.runs.link,
    },
    requests: a.requests + b.requests,
    shrinkRequests: a.shrinkRequests + b.shrinkRequests,
    discarded: a.discarded + b.discarded,
    findings: a.findings + b.findings,
    ...(stopped !== undefined ? { stopped } : {}),
    coverage: mergeCoverage(a.coverage, b.coverage),
  };
}

export function mergeFuzz(list: (FuzzRunSummary | undefined)[]): FuzzRunSummary | undefined {
  const given = list.filter((f): f is FuzzRunSummary => f !== undefined);
  if (given.length === 0) return undefined;
  const operations: Record<string, FuzzStats> = {};
  for (const f of given)
    for (const [op, stats] of Object.entries(f.operations))
      operations[op] = operations[op] ? mergeStats(operations[op], stats) : stats;
  const first = given[0]!;
  return {
    seed: first.seed,
    runs: first.runs,
    // Runs that each chose their seed have no one seed to repeat them by.
    seedChosen: given.some((f) => f.seedChosen || f.seed !== first.seed),
    operations: Object.fromEntries(
      Object.keys(operations)
        .sort()
        .map((k) => [k, operations[k]!]),
    ),
  };
}
