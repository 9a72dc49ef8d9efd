/**
 * The structured result of a contract run: what reporters (console matrix, JUnit, JSON, HTML) and
 * coverage are built from. One `CheckResult` per (operation, variant, check); the runner writes a
 * `ContractRunResult` as JSON to the results file of the run.
 *
 * Stability: fields are only ever added. `version` changes if a field changes meaning.
 * The key never appears in any field: URLs and messages are redacted before they get here.
 */

/** Every check the generated suite runs, in the order each operation's file runs them. */
export const CHECKS = [
  'status',
  'content-type',
  'envelope',
  'business-code',
  'schema',
  'paging',
  'auth',
  'negative',
  'method-path',
  'lifecycle',
  'headers',
  'response-time',
  'server-errors',
] as const;
export type CheckName = (typeof CHECKS)[number];

/** What each check verifies, for report legends. */
export const CHECK_TITLES: Record<CheckName, string> = {
  status: 'the HTTP status is one the operation declares (its success status on a valid request)',
  'content-type': 'the response media type is the declared one',
  envelope: "the body uses the operation's envelope spelling, never the other",
  'business-code':
    "the body's business code is of the operation's group (success on a valid request)",
  schema: 'the body validates against the declared schema',
  paging: 'no more items than the page size asked for',
  auth: 'no key and a wrong key are refused with 401 and the wrong-key code; preview needs no key',
  negative: 'invalid parameters and bodies are refused with 400 or the parameter-error code',
  'method-path': 'wrong method -> 405 with Allow; unknown path -> 404; wrong content type -> 415',
  lifecycle: 'asynchronous submit/poll/result and the upload round trip',
  headers: 'declared response headers are present (when required) and of their type',
  'response-time': 'every response arrives within --max-response-time',
  'server-errors': 'no 5xx and no timeout on any valid or invalid request',
};

/** Checks the preview (`/demo`, no key) variant runs; the others are main-variant only. */
export const PREVIEW_CHECKS: readonly CheckName[] = [
  'status',
  'content-type',
  'envelope',
  'business-code',
  'schema',
  'paging',
  'auth',
  'headers',
  'response-time',
  'server-errors',
];

export type Variant = 'main' | 'preview';
export type CheckStatus = 'passed' | 'failed' | 'skipped';

/** One HTTP request as a report may show it (the key redacted). */
export interface RequestSummary {
  method: string;
  /** Absolute URL, key redacted (`appkey=***`). */
  url: string;
  /** What the request is for, e.g. `valid example "default"`, `query pageSize=21 (maximum 20)`. */
  purpose: string;
}

/** One request and what came back: the raw material of the checks. */
export interface ExchangeRecord {
  request: RequestSummary;
  /** HTTP status, absent when no response arrived. */
  status?: number;
  contentType?: string;
  /** Business code read from the envelope, when there is one. */
  businessCode?: number;
  /** Short excerpt of the response body. */
  excerpt?: string;
  /** Why no response arrived: `timeout after 500 ms`, `ECONNREFUSED`, `request budget exhausted`. */
  error?: string;
  durationMs: number;
  /** Time spent waiting for Retry-After on 429 answers before this response. */
  waitedMs: number;
  /** Number of 429 answers that were retried. */
  retries: number;
  /** Parameters (and body fields, as `body.<name>`) the request carried. */
  parameters: string[];
}

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
  options: {
    only?: string[];
    shard?: string;
    timeoutMs: number;
    allowWrites: boolean;
    maxResponseTimeMs?: number;
    budget?: number;
  };
  startedAt: string;
  durationMs: number;
  summary: { passed: number; failed: number; skipped: number; requests: number };
  /** Requests refused by the budget (their checks are skipped). */
  budgetExhausted: boolean;
  /** Sorted by operation, variant, then CHECKS order. */
  results: CheckResult[];
  coverage: CoverageData;
  /** Errors outside any check (a file that failed to load, an unreachable target). */
  errors: string[];
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
