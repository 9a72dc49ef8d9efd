/**
 * The console report, printed after vitest's progress output: the operations-by-checks matrix,
 * each failure with its request, expected and actual values and Ajv error paths, then totals and
 * coverage. Text from the target is made single-line and control characters visible, so a hostile
 * response cannot rewrite the terminal (ANSI escapes) or fake lines of the report.
 */
import { expectedGotOf } from '../checks/verdict.ts';
import { CHECKS, type CheckResult, type CheckStatus } from '../results.ts';
import type { CoverageReport } from './coverage.ts';
import { oneLine } from './escape.ts';
import {
  answerLine,
  counted,
  notKeptNote,
  unjudgedNote,
  responseOf,
  CHECK_ABBREVIATIONS,
  failuresOf,
  headline,
  matrixOf,
  percent,
  fuzzLines,
  generatedRequests,
  waitsOf,
  type ContractReport,
} from './report.ts';
import {
  failureOf,
  faultsOf,
  messageOf,
  notKeptLine,
  notTestedOf,
  warningsOf,
} from './findings-view.ts';

export interface ConsoleOptions {
  /** ANSI colours (default: off). */
  color?: boolean;
  /** Report files written by the run, shown at the end (relative paths). */
  files?: string[];
  /** Most failures printed in full (the rest are counted; the files have them all). */
  maxFailures?: number;
}

const SYMBOL: Record<CheckStatus, string> = { passed: '✓', failed: '✗', skipped: '·' };
const COLOUR: Record<CheckStatus, string> = { passed: '32', failed: '31', skipped: '2' };
/** Most errors (Ajv paths) shown per failure. */
const MAX_ERRORS = 6;
/** Most "never reached" items listed per line. */
const MAX_LISTED = 12;

export function renderConsole(report: ContractReport, o: ConsoleOptions = {}): string {
  const paint = (code: string, text: string) => (o.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines: string[] = ['', `dataapi contract: ${targetLine(report)}`, ''];

  const rows = matrixOf(report.results);
  if (rows.length) {
    const width = Math.max(9, ...rows.map((r) => r.label.length));
    lines.push(
      `${'operation'.padEnd(width)}  ${CHECKS.map((c) => CHECK_ABBREVIATIONS[c]).join(' ')}`,
    );
    for (const row of rows) {
      const cells = CHECKS.map((c) => {
        const r = row.cells[c];
        return r ? ` ${paint(COLOUR[r.status], SYMBOL[r.status])}` : '  ';
      });
      // A row skipped whole (an operation that writes, without --allow-writes) says why.
      const present = CHECKS.map((c) => row.cells[c]).filter((r) => r !== undefined);
      const reasons = new Set(
        present.map((r) => (r.status === 'skipped' ? messageOf(r) : undefined)),
      );
      const [reason] = reasons;
      const why =
        present.length > 0 && reasons.size === 1 && reason ? `  skipped: ${oneLine(reason)}` : '';
      lines.push(`${oneLine(row.label).padEnd(width)}  ${cells.join(' ')}${why}`);
    }
    lines.push(
      '',
      `  ${SYMBOL.passed} passed  ${SYMBOL.failed} failed  ${SYMBOL.skipped} skipped  (blank: not run for the variant)`,
      `  ${CHECKS.map((c) => `${CHECK_ABBREVIATIONS[c]} ${c}`).join(', ')}`,
    );
  }

  const failures = failuresOf(report);
  const max = o.maxFailures ?? 50;
  if (failures.length) lines.push('', paint('31;1', `Failures (${failures.length})`));
  for (const f of failures.slice(0, max)) lines.push('', ...failureLines(f, paint));
  if (failures.length > max)
    lines.push('', `  ... ${failures.length - max} more failures: see the report files`);

  if (report.errors.length) {
    lines.push('', paint('31;1', `Errors outside any check (${report.errors.length})`));
    for (const e of report.errors) lines.push(`  ${oneLine(e)}`);
  }

  lines.push(...warningLines(report, paint));
  lines.push(...faultLines(report, paint));
  lines.push('', totalsLine(report, paint));
  lines.push(...coverageLines(report.coverageReport));
  if (o.files?.length) lines.push('', 'Reports:', ...o.files.map((f) => `  ${f}`));
  lines.push('');
  return lines.join('\n');
}

/** The short summary printed when the console report was not asked for (file reports only). */
export function renderSummary(report: ContractReport, o: { files?: string[] } = {}): string {
  const lines = ['', `dataapi contract: ${targetLine(report)}`];
  for (const f of failuresOf(report))
    lines.push(
      `  ${SYMBOL.failed} ${oneLine(f.operation)}${f.variant === 'preview' ? ' (preview)' : ''} · ${oneLine(headline(f))}`,
    );
  for (const e of report.errors) lines.push(`  error: ${oneLine(e)}`);
  for (const w of warningsOf(report))
    lines.push(`  warning: ${oneLine(w.pointer)}: ${oneLine(w.message)}`);
  for (const f of faultsOf(report))
    lines.push(
      `  toolkit fault: ${oneLine(f.operation)} · ${oneLine(f.check)}: ${oneLine(f.purpose)}`,
    );
  lines.push(
    totalsLine(report, (_c, t) => t),
    coverageLines(report.coverageReport)[0]!,
  );
  if (o.files?.length) lines.push('Reports:', ...o.files.map((f) => `  ${f}`));
  lines.push('');
  return lines.join('\n');
}

/** Most description warnings printed (the report files have them all). */
const MAX_WARNINGS = 100;

/** The description warnings: pointer, code and message (the description's fault, not the target's). */
function warningLines(report: ContractReport, paint: (c: string, t: string) => string): string[] {
  const list = warningsOf(report);
  if (!list.length) return [];
  const out = [
    '',
    paint('33;1', `Description warnings (${list.length})`) +
      (report.options.strict ? ' (--strict: they fail the run)' : ' (not failures)'),
  ];
  for (const w of list.slice(0, MAX_WARNINGS)) {
    const at =
      w.file !== undefined && w.line !== undefined ? ` (${oneLine(w.file)}:${w.line})` : '';
    out.push(
      `  ${paint('33', '!')} ${oneLine(w.pointer)} [${oneLine(w.code)}]${at}`,
      `      ${oneLine(w.message)}`,
    );
  }
  if (list.length > MAX_WARNINGS)
    out.push(`  ... ${list.length - MAX_WARNINGS} more warnings: see the report files`);
  return out;
}

/**
 * Toolkit faults: requests the suite built wrong (recheck.ts). Said apart from failures, with a
 * request to report them, since neither the target nor the description is to blame.
 */
function faultLines(report: ContractReport, paint: (c: string, t: string) => string): string[] {
  const list = faultsOf(report);
  if (!list.length) return [];
  const out = [
    '',
    paint('35;1', `Toolkit faults (${list.length})`) +
      " (the suite's own mistakes, not the target's failures: please report them to dataapi)",
  ];
  for (const f of list.slice(0, MAX_WARNINGS))
    out.push(
      `  ${paint('35', '?')} ${oneLine(f.operation)} · ${oneLine(f.check)} [toolkit-fault]: ${oneLine(f.purpose)}`,
      `      ${oneLine(`${f.request.method} ${f.request.url}`)}: ${expectedGotOf(oneLine(f.expected), oneLine(f.actual))}`,
      `      ${oneLine(f.why)}`,
    );
  if (list.length > MAX_WARNINGS)
    out.push(`  ... ${list.length - MAX_WARNINGS} more toolkit faults: see the report files`);
  return out;
}

/**
 * The operations the run reached: those with results, and those whose checks only crashed (an
 * error names its test, `<operation> > <check> (...)`): the line must not count fewer.
 */
function operationsOf(report: ContractReport): number {
  const ops = new Set(report.results.map((r) => r.operation));
  for (const e of report.errors) {
    const m = /^([^\s>]+)(?: \(preview\))? > /.exec(e);
    if (m) ops.add(m[1] as string);
  }
  return ops.size;
}

function totalsLine(report: ContractReport, paint: (c: string, t: string) => string): string {
  const s = report.summary;
  const waits = waitsOf(report);
  const errors = report.errors.length;
  const warnings = warningsOf(report).length;
  const faults = faultsOf(report).length;
  return (
    `Checks: ${paint('32', `${s.passed} passed`)}, ${paint(s.failed ? '31;1' : '0', `${s.failed} failed`)}, ${s.skipped} skipped` +
    notTestedNote(report) +
    // Errors fail the run (exit 1) as failures do: the line says so.
    (errors
      ? `, ${paint('31;1', `${errors} error${errors === 1 ? '' : 's'} outside any check`)}`
      : '') +
    (warnings ? `, ${warnings} description warning${warnings === 1 ? '' : 's'}` : '') +
    (faults ? `, ${faults} toolkit fault${faults === 1 ? '' : 's'} (not failures)` : '') +
    ` (${counted(operationsOf(report), 'operation')}, ${counted(s.requests, 'request')}` +
    (report.fuzz ? ` of which ${generatedRequests(report)} generated` : '') +
    (waits.retries
      ? `, 429 retries: ${waits.retries} (waited ${Math.round(waits.waitedMs)} ms)`
      : '') +
    `, ${(report.durationMs / 1000).toFixed(1)} s)` +
    (report.budgetExhausted ? '; the request budget ran out: later checks were skipped' : '') +
    (unjudgedNote(report) ? `; traffic: ${unjudgedNote(report)}` : '') +
    (notKeptNote(report) ? `; ${notKeptNote(report)}` : '')
  );
}

/** ` (of which 12 not tested: no-credentials 10, missing-test-data 2)`: what the run lacked. */
function notTestedNote(report: ContractReport): string {
  const by = new Map<string, number>();
  for (const r of report.results) {
    const code = r.status === 'skipped' ? notTestedOf(r)?.code : undefined;
    if (code) by.set(code, (by.get(code) ?? 0) + 1);
  }
  if (by.size === 0) return '';
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  return ` (of which ${total} not tested: ${[...by].map(([c, n]) => `${c} ${n}`).join(', ')})`;
}

function targetLine(report: ContractReport): string {
  const opts = report.options;
  const bits = [
    oneLine(report.target.baseUrl) + (report.target.embeddedMock ? ' (embedded mock)' : ''),
    opts.only ? `only ${opts.only.join(',')}` : '',
    opts.shard ? `shard ${opts.shard}` : '',
    opts.fuzz !== undefined ? `--fuzz ${opts.fuzz} --seed ${opts.seed}` : '',
  ].filter(Boolean);
  return bits.join(', ');
}

function failureLines(f: CheckResult, paint: (c: string, t: string) => string): string[] {
  const variant = f.variant === 'preview' ? ' (preview)' : '';
  const out = [
    `  ${paint('31', SYMBOL.failed)} ${oneLine(f.operation)}${variant} · ${oneLine(headline(f))}`,
  ];
  const v = failureOf(f);
  if (v?.request) out.push(`      request:  ${oneLine(`${v.request.method} ${v.request.url}`)}`);
  if (v?.expected !== undefined) out.push(`      expected: ${oneLine(v.expected)}`);
  if (v?.actual !== undefined) out.push(`      actual:   ${oneLine(v.actual)}`);
  const errors = v?.errors ?? [];
  for (const e of errors.slice(0, MAX_ERRORS)) out.push(`      error:    ${oneLine(e)}`);
  if (errors.length > MAX_ERRORS)
    out.push(`      ... ${errors.length - MAX_ERRORS} more errors in the reports`);
  if (v?.notKept) out.push(`      ${notKeptLine(v.notKept)}`);
  if (v?.excerpt !== undefined) out.push(`      value:    ${oneLine(v.excerpt)}`);
  const response = responseOf(f);
  if (response) out.push(`      response: ${oneLine(answerLine(response))}`);
  if (f.fuzz) out.push(...fuzzLines(f.fuzz).map((l) => `      ${oneLine(l)}`));
  return out;
}

function list(items: (string | number)[]): string {
  const shown = items.slice(0, MAX_LISTED).map((x) => oneLine(String(x)));
  return items.length > MAX_LISTED
    ? `${shown.join(', ')}, ... (+${items.length - MAX_LISTED})`
    : shown.join(', ');
}

export function coverageLines(c: CoverageReport): string[] {
  const t = c.totals;
  const tally = (name: string, x: { covered: number; total: number }) =>
    `${name} ${x.covered}/${x.total} (${percent(x)})`;
  const out = [
    `Coverage: ${[
      tally('operations', t.operations),
      tally('previews', t.previews),
      tally('HTTP statuses', t.statuses),
      tally('business codes', t.businessCodes),
      tally('parameters', t.parameters),
    ].join(', ')}`,
  ];
  const never = (label: string, items: string[]) => {
    if (items.length) out.push(`  never reached ${label}: ${list(items)}`);
  };
  never('operations', c.operations.missed);
  never('previews', c.previews.missed);
  // Statuses: grouped by the missed set, since most operations miss the same ones (403, 429, 5xx).
  const byMissed = new Map<string, string[]>();
  for (const [op, s] of Object.entries(c.statuses))
    if (s.missed.length) {
      const k = s.missed.join(', ');
      byMissed.set(k, [...(byMissed.get(k) ?? []), op]);
    }
  for (const [missed, ops] of byMissed)
    out.push(`  never reached HTTP ${missed}: ${ops.length === 1 ? ops[0] : list(ops)}`);
  for (const [group, g] of Object.entries(c.businessCodes))
    if (g.missed.length) out.push(`  never reached codes of group ${group}: ${list(g.missed)}`);
  const params = Object.entries(c.parameters).flatMap(([op, p]) =>
    p.missed.map((m) => `${op} ${m}`),
  );
  never('parameters', params);
  // Declared, but nothing the suite sends or answers: said, so no one reads them as tested.
  const skipped = c.notExercised;
  if (skipped?.callbacks.length)
    out.push(
      `  not exercised: ${skipped.callbacks.length} callback(s): ${list(skipped.callbacks)}`,
    );
  if (skipped?.webhooks.length)
    out.push(`  not exercised: ${skipped.webhooks.length} webhook(s): ${list(skipped.webhooks)}`);
  if (skipped?.absentHeaders?.length)
    out.push(
      `  not exercised: ${skipped.absentHeaders.length} required header(s) left out (fetch always sends them): ${list(skipped.absentHeaders)}`,
    );
  if (c.fuzz) {
    const f = c.fuzz;
    out.push(
      `Fuzz coverage: ${[
        tally('enum values', f.totals.enumValues),
        tally('parameter presence', f.totals.presence),
        tally('boundary values', f.totals.boundaries),
      ].join(', ')}`,
    );
    never('enum values (fuzz)', f.missed.enumValues);
    never('presence (fuzz)', f.missed.presence);
    never('boundary values (fuzz)', f.missed.boundaries);
  }
  if (c.operations.notInRun.length)
    out.push(
      `  not in this run (--only/--shard): ${counted(c.operations.notInRun.length, 'operation')}`,
    );
  return out;
}
