/**
 * The report model every reporter renders: the run's results (redacted once more, deeply, so no
 * renderer can leak the key whatever escaping it applies), the coverage against the model, and the
 * operations-by-checks matrix.
 */
import type { ServiceModel } from 'dataapi/model';
import { redact, REDACTED } from 'dataapi/runtime/shared';
import {
  CHECK_TITLES,
  CHECKS,
  type CheckName,
  type CheckResult,
  type ContractRunResult,
  type ExchangeRecord,
  type Variant,
} from '../results.ts';
import { computeCoverage, type CoverageReport } from './coverage.ts';

/** The JSON report: a ContractRunResult plus what reporters compute from it (docs/reports.md). */
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

/**
 * Every way a key can be written in a URL: as is, `encodeURIComponent` (what `redact` covers), form
 * encoding by `URLSearchParams` (which also encodes ' ( ) ! ~ and writes a space as +) and
 * `encodeURI`; and escaped as JSON, XML or HTML text.
 */
export function secretForms(secrets: (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    forms.add(s);
    forms.add(new URLSearchParams({ k: s }).toString().slice(2));
    forms.add(encodeURI(s));
    // As escaped inside JSON, XML and HTML text (vitest's own report files hold such text).
    forms.add(JSON.stringify(s).slice(1, -1));
    for (const apos of ['&apos;', '&#39;'])
      forms.add(
        s
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/"/g, '&quot;')
          .replace(/'/g, apos),
      );
  }
  // Longest first, so that a form containing another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Shortest key prefix redacted where an excerpt was cut (`abcd…`): shorter ones say nothing. */
const MIN_PREFIX = 4;

/**
 * A function that removes the key from text: every form of `secretForms`, and a form cut short by
 * an excerpt's ellipsis (`…`), which an exact match cannot see (`appkey=echo-sentinel-K…`).
 */
export function redactor(secrets: (string | undefined)[]): (text: string) => string {
  const forms = secretForms(secrets);
  if (!forms.length) return (text) => text;
  const prefixes = new Set<string>();
  for (const f of forms)
    for (let k = f.length - 1; k >= Math.min(MIN_PREFIX, f.length - 1) && k > 0; k--)
      prefixes.add(f.slice(0, k));
  const cut = new RegExp(
    `(?:${[...prefixes]
      .sort((a, b) => b.length - a.length)
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})…`,
    'g',
  );
  return (text) => {
    const out = redact(text, forms);
    return out.includes('…') ? out.replace(cut, `${REDACTED}…`) : out;
  };
}

/** Replaces the key (and its URL-encoded or cut-short forms) in every string of a JSON value. */
export function redactDeep<T>(value: T, secrets: (string | undefined)[]): T {
  if (!secretForms(secrets).length) return value;
  const clean = redactor(secrets);
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) =>
    typeof v === 'string' ? clean(v) : v,
  ) as T;
}

export function buildReport(
  result: ContractRunResult,
  model: ServiceModel,
  secrets: (string | undefined)[] = [],
): ContractReport {
  const clean = redactDeep(result, secrets);
  return {
    ...clean,
    reportVersion: 1,
    checks: CHECKS.map((name) => ({ name, title: CHECK_TITLES[name] })),
    coverageReport: computeCoverage(clean, model),
  };
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
  const req = r.request;
  if (!req) return undefined;
  const same = r.exchanges.filter((e) => e.request.method === req.method && e.request.url === req.url);
  return same.find((e) => e.status !== undefined) ?? same[0];
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

export { CHECK_ABBREVIATIONS } from '../checks/registry.ts';
