/**
 * What judged traffic adds up to: findings per operation, variant and check, and a sample of the
 * exchanges (enough for coverage: every new status, business code or parameter is kept), turned
 * into the same ContractRunResult `dataapi contract` writes, so every report renders it.
 */
import type { ServiceModel } from 'dataapi/model';
import { CHECKS, PREVIEW_CHECKS, type CheckName } from '../checks/definitions.ts';
import type { ExchangeRecord, Variant } from '../exchange.ts';
import { coverageOf, type CheckResult, type ContractRunResult } from '../results.ts';
import { dedupeWarnings, type DescriptionWarning } from '../warnings.ts';
import { observedOf, type JudgedExchange, type TrafficFinding } from './judge.ts';
import { descriptionIdentity } from '../description-identity.ts';

/** Exchanges kept per operation and variant beyond those that add coverage. */
const SAMPLE = 20;
/** Failing exchanges kept per operation and variant. */
const KEPT = 200;

interface Row {
  operation: string;
  variant: Variant;
  exchanges: ExchangeRecord[];
  seen: Set<string>;
  judged: Set<CheckName>;
  findings: TrafficFinding[];
}

/** One line per finding, as printed live (the URL already redacted). */
export function findingLine({ check, finding: f }: TrafficFinding): string {
  const e = observedOf(f);
  const who = f.operation ? `${f.operation}${f.variant === 'preview' ? ' (preview)' : ''} ` : '';
  const answer = e.status !== undefined ? ` -> HTTP ${e.status}` : '';
  const mark = f.severity === 'failure' ? '✗' : '!';
  return `${mark} ${who}${check}: ${e.method} ${e.url}${answer}: expected ${e.expected}, got ${e.actual}`.replace(
    /[\r\n]+/g,
    ' ',
  );
}

export class TrafficLog {
  private rows = new Map<string, Row>();
  readonly undocumented: TrafficFinding[] = [];
  exchanges = 0;
  readonly startedAt = Date.now();

  add(j: JudgedExchange): void {
    this.exchanges++;
    if (j.operation === undefined || !j.record) {
      this.undocumented.push(...j.findings);
      return;
    }
    const operation = j.operation;
    const variant = j.variant ?? 'main';
    const key = `${operation}\u0000${variant}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { operation, variant, exchanges: [], seen: new Set(), judged: new Set(), findings: [] };
      this.rows.set(key, row);
    }
    const r = j.record;
    const marks = [`s${r.status}`, `c${r.businessCode}`, ...r.parameters.map((p) => `p${p}`)];
    // A failing exchange is kept too (reports show its answer), up to a ceiling.
    const failing =
      j.findings.some((f) => f.finding.severity === 'failure') && row.exchanges.length < KEPT;
    if (failing || row.exchanges.length < SAMPLE || marks.some((m) => !row.seen.has(m)))
      row.exchanges.push(r);
    for (const m of marks) row.seen.add(m);
    for (const c of j.judged) row.judged.add(c);
    for (const f of j.findings) row.judged.add(f.check as CheckName);
    row.findings.push(...j.findings);
  }

  /** Every finding so far, with the check it is reported under. */
  findings(): TrafficFinding[] {
    return [...[...this.rows.values()].flatMap((r) => r.findings), ...this.undocumented];
  }

  /** The run result of the traffic so far (`target` names the deployment, never a key). */
  result(model: ServiceModel, target: string): ContractRunResult {
    const results: CheckResult[] = [];
    const warnings: DescriptionWarning[] = [];
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
        results.push(this.checkResult(row, check, warnings));
    }
    const summary = { passed: 0, failed: 0, skipped: 0, requests: this.exchanges, warnings: 0 };
    for (const r of results) summary[r.status]++;
    // A request no operation documents belongs to no check: answered as if documented, it is a
    // warning about the description (or, set to failure by the user, an error of the run).
    for (const { finding: f } of this.undocumented.filter((f) => f.finding.severity !== 'failure'))
      warnings.push({
        code: 'undocumented',
        pointer: f.pointer ?? '/paths',
        message: `${observedOf(f).actual} (expected ${observedOf(f).expected})`,
      });
    const deduped = dedupeWarnings(warnings);
    summary.warnings = deduped.length;
    return {
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
      errors: this.undocumented
        .filter((f) => f.finding.severity === 'failure')
        .map(({ finding }) => observedOf(finding))
        .map((e) => `undocumented: ${e.actual} (expected ${e.expected})`),
      warnings: deduped,
    };
  }

  private checkResult(row: Row, check: CheckName, warnings: DescriptionWarning[]): CheckResult {
    const mine = row.findings.filter((f) => f.check === check).map((f) => f.finding);
    const failures = mine.filter((f) => f.severity === 'failure').map(observedOf);
    for (const w of mine.filter((f) => f.severity !== 'failure')) {
      const e = observedOf(w);
      // What only traffic shows (a key sent the wrong way, a 429 without Retry-After) has no
      // place in the description: the run lists it as observed.
      warnings.push({
        code: w.pointer === undefined ? 'observed' : (w.code as DescriptionWarning['code']),
        pointer: w.pointer ?? '',
        operation: row.operation,
        message: `${e.method} ${e.url}: expected ${e.expected}, got ${e.actual}`,
      });
    }
    const base = {
      operation: row.operation,
      variant: row.variant,
      check,
      durationMs: Math.round(row.exchanges.reduce((s, e) => s + e.durationMs, 0)),
      waitedMs: 0,
      exchanges: row.exchanges,
    };
    const first = failures[0];
    if (!first)
      return {
        ...base,
        status: 'passed',
        message: `${row.exchanges.length} observed request(s) conform`,
        errors: [],
      };
    return {
      ...base,
      status: 'failed',
      message: `observed ${first.method}: expected ${first.expected}, got ${first.actual}`,
      request: { method: first.method, url: first.url },
      expected: first.expected,
      actual: first.actual,
      errors: failures
        .flatMap((f) =>
          f.errors?.length
            ? f.errors.map((e) => `${f.method} ${f.url}: ${e}`)
            : [`${f.method} ${f.url}: expected ${f.expected}, got ${f.actual}`],
        )
        .slice(0, 20),
      ...(first.excerpt !== undefined ? { excerpt: first.excerpt } : {}),
    };
  }
}
