/**
 * The structured result of a contract run: what reporters (console matrix, JUnit, JSON, HTML) and
 * coverage are built from. One `CheckResult` per (operation, variant, check); the runner writes a
 * `ContractRunResult` as JSON to the results file of the run.
 *
 * Stability: fields are only ever added. `version` changes if a field changes meaning.
 * The key never appears in any field: URLs and messages are redacted before they get here.
 */

import type { Finding, NotTestedCode } from 'dataapi/model';
import type { CheckName } from './checks/definitions.ts';
import type { CheckStatus, ExchangeRecord, Variant } from './exchange.ts';
import type { DescriptionWarning } from './warnings.ts';
import type { FuzzFinding, FuzzRunSummary } from './fuzz/types.ts';
import type { DescriptionIdentity } from './description-identity.ts';

export type { DescriptionWarning } from './warnings.ts';
export type { DescriptionIdentity } from './description-identity.ts';
export type { ToolkitFault } from './recheck.ts';
import type { ToolkitFault } from './recheck.ts';
import type { SavedRequest } from './saved.ts';

// The checks (names, titles, which variants) are defined once, in checks/definitions.ts; the
// request records in exchange.ts. Both re-exported: this is the results' public vocabulary.
export { CHECK_TITLES, CHECKS, PREVIEW_CHECKS } from './checks/definitions.ts';
export type { CheckName } from './checks/definitions.ts';
export type { CheckStatus, ExchangeRecord, RequestSummary, Variant } from './exchange.ts';
export type {
  FuzzCoverageData,
  FuzzFinding,
  FuzzRunSummary,
  FuzzStats,
  WireRequest,
} from './fuzz/types.ts';

export interface CheckResult {
  /** Operation id (`op.id` of the model). */
  operation: string;
  variant: Variant;
  check: CheckName;
  status: CheckStatus;
  /** One line: why it failed or was skipped, or what passed. */
  message: string;
  /** The request that failed the check (the first one), or the main request of the check. */
  request?: { method: string; url: string };
  expected?: string;
  actual?: string;
  /** Ajv error paths and other detail lines (`/Data/0/AQI must be string (got 42)`). */
  errors: string[];
  /** Short excerpt of the offending value or body. */
  excerpt?: string;
  /** Time spent on the requests the check evaluated (sum of their durations). */
  durationMs: number;
  /** Time spent waiting on 429 Retry-After for those requests. */
  waitedMs: number;
  /** Every request the check evaluated. */
  exchanges: ExchangeRecord[];
  /**
   * What the check found wrong with the description rather than the target (an undeclared status
   * on a probe, a schema no value satisfies, an invalid example): never a failure.
   */
  warnings?: DescriptionWarning[];
  /** When the failing request was generated (--fuzz): seed, the minimal request, how to replay it. */
  fuzz?: FuzzFinding;
  /**
   * Violations on requests the suite built wrong (recheck.ts: a request meant to be refused that
   * the description admits as sent, or the reverse): the toolkit's fault, never a failure.
   */
  toolkitFaults?: ToolkitFault[];
  /** The failing request as a saved test replays it (--save-failures; the key replaced by a marker). */
  saved?: SavedRequest;
  /**
   * On a skipped check: what the run lacked to test it (no-credentials, missing-test-data,
   * writes-not-allowed), a code of the catalogue; the message says why.
   */
  notTested?: NotTestedCode;
  /**
   * What the check found, as the one finding record (model/finding.ts) every report reads: each
   * failure (every violation, with its exchange as evidence), description warning, toolkit fault
   * and lack (not tested), in the order the check found them, each severity decided by the run's
   * settings. Absent in results written before this field existed (findings-of-result.ts derives
   * it from the fields above).
   */
  findings?: Finding[];
  /**
   * Findings of traffic counted but not kept (the proxy keeps the first 200 of each operation,
   * variant and check, so that memory stays flat on a long run): "N more like these".
   */
  findingsNotKept?: number;
}

/** Raw coverage: what the run exercised (reporters compare it with the model for "never reached"). */
export interface CoverageData {
  /** Operations with at least one request that got a response. */
  operations: string[];
  /** Operations whose preview variant answered at least once. */
  previews: string[];
  /** Per operation: HTTP statuses received. */
  statuses: Record<string, number[]>;
  /** Per operation: business codes received. */
  businessCodes: Record<string, number[]>;
  /** Per operation: parameters and body fields (`body.<name>`) sent. */
  parameters: Record<string, string[]>;
}

export interface ContractRunResult {
  version: 1;
  /**
   * Base URL of the target (no key), whether it was the embedded mock, and whether a key was given
   * (DATAAPI_APPKEY; absent in results written before this field existed).
   */
  target: { baseUrl: string; embeddedMock: boolean; keyProvided?: boolean };
  /**
   * The description the run judged by (absent in results written before this field existed):
   * `dataapi report merge` merges only results of the same one.
   */
  description?: DescriptionIdentity;
  options: {
    only?: string[];
    shard?: string;
    timeoutMs: number;
    allowWrites: boolean;
    maxResponseTimeMs?: number;
    budget?: number;
    /** Description warnings fail the run (exit 1). */
    strict?: boolean;
    /** --fuzz N and the run's seed (given with --seed, or chosen and printed). */
    fuzz?: number;
    seed?: number;
    /** The checks run (--checks, --exclude-checks); absent: every check. */
    checks?: CheckName[];
  };
  startedAt: string;
  durationMs: number;
  summary: {
    passed: number;
    failed: number;
    skipped: number;
    requests: number;
    /** Description warnings (the `warnings` list). */
    warnings: number;
    /** Toolkit faults (the `toolkitFaults` list): not the target's, the run does not fail on them. */
    toolkitFaults?: number;
  };
  /** Requests refused by the budget (their checks are skipped). */
  budgetExhausted: boolean;
  /** Sorted by operation, variant, then CHECKS order. */
  results: CheckResult[];
  coverage: CoverageData;
  /** Errors outside any check (a file that failed to load, an unreachable target). */
  errors: string[];
  /** What the description gets wrong or leaves unsaid, each with its JSON pointer (deduplicated). */
  warnings: DescriptionWarning[];
  /** What fuzzing sent and exercised, per operation (runs with --fuzz). */
  fuzz?: FuzzRunSummary;
  /** Every check's toolkit faults (CheckResult.toolkitFaults), in result order. */
  toolkitFaults?: ToolkitFault[];
  /** Traffic judged by the proxy: how much of it was judged, and why the rest was not. */
  traffic?: TrafficJudging;
  /**
   * The whole run's findings (the description's own, and every check's), each once, in a stable
   * order (file, line, pointer, code, operation): what every report lists. Absent in results
   * written before this field existed (findings-of-result.ts derives it).
   */
  findings?: Finding[];
  /**
   * Findings of traffic counted but not kept: every check's `findingsNotKept`, and those of
   * requests no operation documents beyond the first 200.
   */
  findingsNotKept?: number;
}

export interface TrafficJudging {
  exchanges: number;
  judged: number;
  /** Passed through unjudged: the judges were behind (their queue was full). */
  overloaded: number;
  /** Judged on status and headers only: a body over the judging limit (1 MiB). */
  overSize: number;
  /** The answer broke off (upstream reset or client hang-up): its body was not judged. */
  incomplete: number;
  /** Judging itself failed (a toolkit bug, said on stderr). */
  failed: number;
}

/** Coverage from check results (every exchange of every check). */
export function coverageOf(results: CheckResult[]): CoverageData {
  const ops = new Set<string>();
  const previews = new Set<string>();
  const statuses = new Map<string, Set<number>>();
  const codes = new Map<string, Set<number>>();
  const params = new Map<string, Set<string>>();
  const add = <T>(m: Map<string, Set<T>>, k: string, v: T) => {
    let s = m.get(k);
    if (!s) m.set(k, (s = new Set()));
    s.add(v);
  };
  for (const r of results) {
    for (const e of r.exchanges) {
      for (const p of e.parameters) add(params, r.operation, p);
      if (e.status === undefined) continue;
      ops.add(r.operation);
      if (r.variant === 'preview') previews.add(r.operation);
      add(statuses, r.operation, e.status);
      if (e.businessCode !== undefined) add(codes, r.operation, e.businessCode);
    }
  }
  const sorted = <T>(m: Map<string, Set<T>>) =>
    Object.fromEntries(
      [...m.keys()]
        .sort()
        .map((k) => [k, [...m.get(k)!].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))]),
    ) as Record<string, T[]>;
  return {
    operations: [...ops].sort(),
    previews: [...previews].sort(),
    statuses: sorted(statuses) as Record<string, number[]>,
    businessCodes: sorted(codes) as Record<string, number[]>,
    parameters: sorted(params) as Record<string, string[]>,
  };
}
