/**
 * The report model every reporter renders: the run's results (their values redacted once more, so
 * no renderer can leak the key; the rendered text itself is never rewritten), the coverage against
 * the model, and the operations-by-checks matrix.
 */
import type { ServiceModel } from 'dataapi/model';
import { redactorFor } from 'dataapi/runtime/shared';
import { redactRunResult } from '../redact-results.ts';
import {
  CHECK_TITLES,
  CHECKS,
  type CheckName,
  type CheckResult,
  type ContractRunResult,
  type ExchangeRecord,
  type FuzzFinding,
  type Variant,
} from '../results.ts';
import { computeCoverage, type CoverageReport } from './coverage.ts';
import { failureOf, messageOf } from './findings-view.ts';

/** The JSON report: a ContractRunResult plus what reporters compute from it (docs/reports.md). */

/** `1 operation`, `7 requests`: a count with its noun in the right number. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * What of the traffic went unjudged, and why (the proxy's reports): empty when all of it was.
 * `12 of 1,000 exchanges not judged (12 while the judges were behind)`.
 */
export function unjudgedNote(r: ContractRunResult): string {
  const t = r.traffic;
  if (!t) return '';
  const reasons = [
    t.overloaded ? `${t.overloaded} while the judges were behind` : '',
    t.failed ? `${t.failed} that judging failed on` : '',
  ].filter(Boolean);
  const partial = [
    t.overSize ? `${t.overSize} with a body over the 1 MiB judging limit` : '',
    t.incomplete ? `${t.incomplete} broken off midway` : '',
  ].filter(Boolean);
  const unjudged = t.exchanges - t.judged;
  return [
    unjudged > 0
      ? `${unjudged} of ${counted(t.exchanges, 'exchange')} not judged (${reasons.join(', ') || 'still being judged'})`
      : '',
    partial.length ? `judged on status and headers only: ${partial.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * Findings of traffic counted but not kept, over the run (a long proxy run keeps the first 200
 * of each check): empty when every finding was kept.
 */
export function notKeptNote(r: ContractRunResult): string {
  const n = r.findingsNotKept ?? 0;
  return n > 0
    ? `${counted(n, 'more finding')} counted, not kept (the first 200 of each check are)`
    : '';
}

export interface ContractReport extends ContractRunResult {
  /** Version of the fields this module adds; changes only if one changes meaning. */
  reportVersion: 1;
  /** The checks in column order, with what each verifies. */
  checks: { name: CheckName; title: string }[];
  /** Coverage against the model: covered, never reached, totals. */
  coverageReport: CoverageReport;
}

export interface MatrixRow {
  operation: string;
  variant: Variant;
  /** `getAirQuality` or `getAirQuality (preview)`. */
  label: string;
  /** The check's result, absent when the variant does not run that check. */
  cells: Partial<Record<CheckName, CheckResult>>;
}

export function buildReport(
  result: ContractRunResult,
  model: ServiceModel,
  secrets: (string | undefined)[] = [],
): ContractReport {
  // Field by field: values are redacted, names and structure never (see redact-results.ts).
  const clean = redactRunResult(result, redactorFor(secrets));
  return {
    ...clean,
    reportVersion: 1,
    checks: CHECKS.map((name) => ({ name, title: CHECK_TITLES[name] })),
    coverageReport: computeCoverage(clean, model),
  };
}

/**
 * `check: message` (the record's message: messageOf), without saying the check twice: a probe's
 * purpose may already start with it (`negative: request body missing`).
 */
export function headline(r: CheckResult): string {
  const message = messageOf(r);
  return message.startsWith(`${r.check}: `) ? message : `${r.check}: ${message}`;
}

/** Rows in result order (operation, then main before preview); one cell per check. */
export function matrixOf(results: CheckResult[]): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const r of results) {
    const key = `${r.operation}\u0000${r.variant}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        operation: r.operation,
        variant: r.variant,
        label: r.variant === 'main' ? r.operation : `${r.operation} (preview)`,
        cells: {},
      };
      rows.set(key, row);
    }
    row.cells[r.check] = r;
  }
  return [...rows.values()];
}

/** The exchange of a check's failing request (its response, or why none arrived). */
export function responseOf(r: CheckResult): ExchangeRecord | undefined {
  const failure = failureOf(r);
  const req = failure?.request;
  if (!failure || !req) return undefined;
  const same = r.exchanges.filter(
    (e) => e.request.method === req.method && e.request.url === req.url,
  );
  // Requests with a body share their URL: the one the failure was for comes first (the record
  // says what it was for; a record without it, its message names it).
  const named = same.filter((e) =>
    failure.purpose !== undefined
      ? e.request.purpose === failure.purpose
      : failure.message.startsWith(`${e.request.purpose}:`),
  );
  return (
    named.find((e) => e.status !== undefined) ?? same.find((e) => e.status !== undefined) ?? same[0]
  );
}

/** One line about an exchange's answer: `HTTP 200, application/json, code 100` or the error. */
export function answerLine(e: ExchangeRecord): string {
  if (e.status === undefined) return `no response: ${e.error ?? 'unknown error'}`;
  return [
    `HTTP ${e.status}`,
    e.contentType,
    e.businessCode !== undefined ? `code ${e.businessCode}` : undefined,
    e.retries ? `after ${e.retries} 429 retries (waited ${Math.round(e.waitedMs)} ms)` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}

export const failuresOf = (report: ContractRunResult): CheckResult[] =>
  report.results.filter((r) => r.status === 'failed');

/**
 * Time spent waiting on 429 Retry-After over the run and the number of retried 429s. Checks share
 * their operation's requests, so each exchange is counted once.
 */
export function waitsOf(report: ContractRunResult): { waitedMs: number; retries: number } {
  const seen = new Set<string>();
  let waitedMs = 0;
  let retries = 0;
  for (const r of report.results)
    for (const e of r.exchanges) {
      const id = `${r.operation} ${r.variant} ${e.request.method} ${e.request.url} ${e.request.purpose} ${e.durationMs}`;
      if (seen.has(id)) continue;
      seen.add(id);
      waitedMs += e.waitedMs;
      retries += e.retries;
    }
  return { waitedMs, retries };
}

export function percent(t: { covered: number; total: number }): string {
  return t.total === 0 ? '-' : `${Math.floor((100 * t.covered) / t.total)}%`;
}

export { CHECK_ABBREVIATIONS } from '../checks/definitions.ts';

/** What reproduces a fuzzing failure: the seed and shrinking, the replay lines and curl. */
export function fuzzLines(f: FuzzFinding): string[] {
  const lines = [
    `fuzz:     ${f.kind} request of ${f.operation}, --seed ${f.seed}, run ${f.run} of ${f.runs}, shrunk in ${f.shrinks} requests`,
  ];
  if (f.violation) lines.push(`invalid:  ${f.violation.label}`);
  if (f.link) lines.push(`link:     ${f.link.name} -> ${f.link.target}`);
  if (f.replay?.command) lines.push(`replay:   ${f.replay.command}`);
  if (f.replay) lines.push(`          ${f.replay.seedCommand}`);
  lines.push(`curl:     ${f.curl}`);
  return lines;
}

/** Requests fuzzing sent in a run (shrinking included). */
export function generatedRequests(report: ContractRunResult): number {
  return Object.values(report.fuzz?.operations ?? {}).reduce((n, s) => n + s.requests, 0);
}
