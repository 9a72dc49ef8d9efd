/**
 * What judged traffic adds up to: findings per operation, variant and check (the judge's own
 * records, bounded: kept-findings.ts), and a sample of the exchanges (enough for coverage: every
 * new status, business code or parameter is kept), turned into the same ContractRunResult
 * `dataapi contract` writes, findings included, so every report reads it as it reads a run's.
 */
import { Diagnostics, type ServiceModel } from 'dataapi/model';
import { CHECKS, PREVIEW_CHECKS, type CheckName } from '../checks/definitions.ts';
import { expectedGotOf } from '../checks/verdict.ts';
import type { ExchangeRecord, Variant } from '../exchange.ts';
import { failureOf, warningsOf } from '../reports/findings-view.ts';
import { coverageOf, type CheckResult, type ContractRunResult } from '../results.ts';
import { observedOf, type JudgedExchange, type TrafficFinding } from './judge.ts';
import { descriptionIdentity } from '../description-identity.ts';
import { KeptFindings } from './kept-findings.ts';
import { KEPT, marksOf, SAMPLE } from './record-sample.ts';

interface Row {
  operation: string;
  variant: Variant;
  exchanges: ExchangeRecord[];
  seen: Set<string>;
  judged: Set<CheckName>;
  findings: Map<CheckName, KeptFindings>;
}

/** One line per finding, as printed live (the URL already redacted). */
export function findingLine({ check, finding: f }: TrafficFinding): string {
  const e = observedOf(f);
  const who = f.operation ? `${f.operation}${f.variant === 'preview' ? ' (preview)' : ''} ` : '';
  const answer = e.status !== undefined ? ` -> HTTP ${e.status}` : '';
  const mark = f.severity === 'failure' ? '✗' : '!';
  const what = `${e.method} ${e.url}${answer}`;
  return `${mark} ${who}${check}: ${what}: ${expectedGotOf(e.expected, e.actual)}`.replace(
    /[\r\n]+/g,
    ' ',
  );
}

export class TrafficLog {
  private rows = new Map<string, Row>();
  /** Findings of requests no operation documents (no check's). */
  private readonly undocumented = new KeptFindings();
  exchanges = 0;
  /** Failures found, kept or not: any fails the run. */
  failures = 0;
  readonly startedAt = Date.now();

  add(j: JudgedExchange): void {
    this.exchanges++;
    for (const f of j.findings) if (f.finding.severity === 'failure') this.failures++;
    if (j.operation === undefined) {
      for (const f of j.findings) this.undocumented.add(f.finding);
      return;
    }
    const operation = j.operation;
    const variant = j.variant ?? 'main';
    const key = `${operation}\u0000${variant}`;
    let row = this.rows.get(key);
    if (!row) {
      row = {
        operation,
        variant,
        exchanges: [],
        seen: new Set(),
        judged: new Set(),
        findings: new Map(),
      };
      this.rows.set(key, row);
    }
    // A judging thread leaves out the records this would not keep (record-sample.ts).
    const r = j.record;
    if (r) {
      const marks = marksOf(r);
      // A failing exchange is kept too (reports show its answer), up to a ceiling.
      const failing =
        j.findings.some((f) => f.finding.severity === 'failure') && row.exchanges.length < KEPT;
      if (failing || row.exchanges.length < SAMPLE || marks.some((m) => !row.seen.has(m)))
        row.exchanges.push(r);
      for (const m of marks) row.seen.add(m);
    }
    for (const c of j.judged) row.judged.add(c);
    for (const { check, finding } of j.findings) {
      const c = check as CheckName;
      row.judged.add(c);
      let kept = row.findings.get(c);
      if (!kept) row.findings.set(c, (kept = new KeptFindings()));
      kept.add(finding);
    }
  }

  /** The run result of the traffic so far (`target` names the deployment, never a key). */
  result(model: ServiceModel, target: string): ContractRunResult {
    const results: CheckResult[] = [];
    const sorted = [...this.rows.values()].sort((a, b) =>
      a.operation === b.operation
        ? a.variant === 'main'
          ? -1
          : 1
        : a.operation < b.operation
          ? -1
          : 1,
    );
    for (const row of sorted) {
      const order = row.variant === 'main' ? CHECKS : PREVIEW_CHECKS;
      for (const check of order.filter((c) => row.judged.has(c)))
        results.push(checkResult(row, check));
    }
    const summary = { passed: 0, failed: 0, skipped: 0, requests: this.exchanges, warnings: 0 };
    for (const r of results) summary[r.status]++;
    // The run's findings as a contract run lists them: each once, in the stable order. A request
    // no operation documents belongs to no check: answered as if documented, it is a warning about
    // the description (or, set to failure by the user, an error of the run).
    const sink = new Diagnostics();
    sink.addDecided(this.undocumented.kept);
    for (const r of results) sink.addDecided(r.findings ?? []);
    const notKept =
      this.undocumented.notKept + results.reduce((n, r) => n + (r.findingsNotKept ?? 0), 0);
    const run: ContractRunResult = {
      version: 1,
      target: { baseUrl: target, embeddedMock: false },
      description: descriptionIdentity(model),
      options: { timeoutMs: 0, allowWrites: true },
      startedAt: new Date(this.startedAt).toISOString(),
      durationMs: Date.now() - this.startedAt,
      summary,
      budgetExhausted: false,
      results,
      coverage: coverageOf(results),
      errors: this.undocumented.kept
        .filter((f) => f.severity === 'failure')
        .map((f) => `undocumented: ${f.message}`),
      warnings: [],
      findings: sink.sorted(),
      ...(notKept > 0 ? { findingsNotKept: notKept } : {}),
    };
    // The warnings as every report lists them, read from the same records.
    run.warnings = warningsOf(run);
    summary.warnings = run.warnings.length;
    return run;
  }
}

/** A check's result: its kept findings as they came, and the failure they record (if any). */
function checkResult(row: Row, check: CheckName): CheckResult {
  const kept = row.findings.get(check);
  const base = {
    operation: row.operation,
    variant: row.variant,
    check,
    durationMs: Math.round(row.exchanges.reduce((s, e) => s + e.durationMs, 0)),
    waitedMs: 0,
    exchanges: row.exchanges,
  };
  const found = {
    findings: [...(kept?.kept ?? [])],
    ...(kept?.notKept ? { findingsNotKept: kept.notKept } : {}),
  };
  const passed: CheckResult = {
    ...base,
    status: 'passed',
    message: `${row.exchanges.length} observed request(s) conform`,
    errors: [],
    ...found,
  };
  // The fields results files had before `findings`, filled from the records as reports read them.
  const failure = kept?.failures ? failureOf(passed) : undefined;
  if (!failure) return passed;
  return {
    ...base,
    status: 'failed',
    message: failure.message,
    ...(failure.request ? { request: failure.request } : {}),
    ...(failure.expected !== undefined ? { expected: failure.expected } : {}),
    ...(failure.actual !== undefined ? { actual: failure.actual } : {}),
    errors: failure.errors,
    ...(failure.excerpt !== undefined ? { excerpt: failure.excerpt } : {}),
    ...found,
  };
}
