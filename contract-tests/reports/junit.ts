/**
 * JUnit XML for CI (GitHub Actions test reporters, GitLab `artifacts:reports:junit`, Jenkins junit):
 * one <testsuite> per operation, one <testcase> per operation, variant and check.
 *
 * Why not vitest's own junit reporter (it stays available as `--reporter vitest-junit`): it names a
 * test case by its file (`classname="generated/contract-tests/get-air-quality.test.ts"`, and
 * `classnameTemplate` only offers {filename}/{filepath}) and the whole test title
 * (`getAirQuality > status (main): the HTTP status is one ...`), and a failure's body is vitest's
 * printed error: a stack trace and code frame of the generated file rather than the request,
 * expected and actual values. It also cannot carry coverage, and cannot be rebuilt from a results
 * file. The structured results already hold everything, so the XML is rendered from them:
 * classname = operation id (`.preview` for the preview variant), name = check.
 */
import { expectedGotOf } from '../checks/verdict.ts';
import { CHECK_TITLES, type CheckResult } from '../results.ts';
import { xmlAttr, xmlText } from './escape.ts';
import {
  answerLine,
  fuzzLines,
  headline,
  percent,
  responseOf,
  unjudgedNote,
  type ContractReport,
} from './report.ts';
import { failureOf, faultsOf, messageOf, notKeptLine, warningsOf } from './findings-view.ts';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function renderJUnit(report: ContractReport): string {
  const byOp = new Map<string, CheckResult[]>();
  for (const r of report.results) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  const s = report.summary;
  const errors = report.errors.length;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="dataapi contract" tests="${report.results.length + errors}" failures="${s.failed}" errors="${errors}" skipped="${s.skipped}" time="${seconds(report.durationMs)}">`,
  ];
  for (const [op, results] of byOp) {
    const count = (st: string) => results.filter((r) => r.status === st).length;
    out.push(
      `  <testsuite name="${xmlAttr(op)}" tests="${results.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${seconds(results.reduce((n, r) => n + r.durationMs, 0))}" timestamp="${xmlAttr(report.startedAt.replace(/Z$/, ''))}">`,
    );
    for (const r of results) out.push(...testcase(r));
    out.push('  </testsuite>');
  }
  // Errors outside any check (a file that failed to load, an unreachable target) fail the build too.
  if (errors) {
    out.push(
      `  <testsuite name="dataapi contract run" tests="${errors}" failures="0" errors="${errors}" skipped="0" time="0.000">`,
    );
    report.errors.forEach((e, i) =>
      out.push(
        `    <testcase classname="dataapi.contract" name="run error ${i + 1}" time="0.000">`,
        `      <error message="${xmlAttr(firstLine(e))}" type="RunError">${xmlText(e)}</error>`,
        '    </testcase>',
      ),
    );
    out.push('  </testsuite>');
  }
  out.push(
    ...warningSuite(report),
    ...faultSuite(report),
    ...trafficSuite(report),
    ...coverageSuite(report),
    '</testsuites>',
    '',
  );
  return out.join('\n');
}

function testcase(r: CheckResult): string[] {
  const classname = r.variant === 'main' ? r.operation : `${r.operation}.preview`;
  const open = `    <testcase classname="${xmlAttr(classname)}" name="${xmlAttr(r.check)}" time="${seconds(r.durationMs)}">`;
  if (r.status === 'passed') return [open.replace(/>$/, '/>')];
  if (r.status === 'skipped')
    return [open, `      <skipped message="${xmlAttr(messageOf(r))}"/>`, '    </testcase>'];
  return [
    open,
    `      <failure message="${xmlAttr(headline(r))}" type="${xmlAttr(r.check)}">${xmlText(details(r))}</failure>`,
    '    </testcase>',
  ];
}

/** The failure body: everything a reader needs to reproduce it, the key already redacted. */
export function details(r: CheckResult): string {
  const lines = [`${r.operation} (${r.variant}) ${headline(r)}`, `check: ${CHECK_TITLES[r.check]}`];
  const v = failureOf(r);
  if (v?.request) lines.push(`request:  ${v.request.method} ${v.request.url}`);
  if (v?.expected !== undefined) lines.push(`expected: ${v.expected}`);
  if (v?.actual !== undefined) lines.push(`actual:   ${v.actual}`);
  if (v?.errors.length) lines.push('errors:', ...v.errors.map((e) => `  ${e}`));
  if (v?.notKept) lines.push(`  ${notKeptLine(v.notKept)}`);
  if (v?.excerpt !== undefined) lines.push(`value:    ${v.excerpt}`);
  const response = responseOf(r);
  if (response) lines.push(`response: ${answerLine(response)}`);
  if (response?.excerpt !== undefined) lines.push(`body:     ${response.excerpt}`);
  if (r.waitedMs > 0) lines.push(`waited ${Math.round(r.waitedMs)} ms on 429 Retry-After`);
  if (r.fuzz) lines.push(...fuzzLines(r.fuzz));
  return lines.join('\n');
}

/**
 * Description warnings as one suite: a passing test case per warning (a failure only under
 * --strict), named by its JSON pointer, the message in system-out, so CI lists them without
 * counting them as broken.
 */
function warningSuite(report: ContractReport): string[] {
  const list = warningsOf(report);
  if (!list.length) return [];
  const strict = report.options.strict === true;
  const out = [
    `  <testsuite name="dataapi description warnings" tests="${list.length}" failures="${strict ? list.length : 0}" errors="0" skipped="0" time="0.000">`,
  ];
  for (const w of list) {
    out.push(
      `    <testcase classname="${xmlAttr(`description.${w.code}`)}" name="${xmlAttr(w.pointer)}" time="0.000">`,
      strict
        ? `      <failure message="${xmlAttr(w.message)}" type="${xmlAttr(w.code)}">${xmlText(`${w.pointer}: ${w.message}`)}</failure>`
        : `      <system-out>${xmlText(`warning ${w.code} at ${w.pointer}${w.operation ? ` (${w.operation})` : ''}: ${w.message}`)}</system-out>`,
      '    </testcase>',
    );
  }
  out.push('  </testsuite>');
  return out;
}

/** Traffic the proxy passed through without judging it in full: said, never failed on. */
function trafficSuite(report: ContractReport): string[] {
  const note = unjudgedNote(report);
  if (!note) return [];
  return [
    '  <testsuite name="dataapi traffic judging" tests="1" failures="0" errors="0" skipped="1" time="0.000">',
    '    <testcase classname="dataapi.traffic" name="unjudged exchanges" time="0.000">',
    `      <skipped message="${xmlAttr(note)}"/>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}

/**
 * Toolkit faults (recheck.ts) as one suite of passing test cases, the fault in system-out: CI
 * shows them without failing the build on the suite's own mistake.
 */
function faultSuite(report: ContractReport): string[] {
  const list = faultsOf(report);
  if (!list.length) return [];
  const out = [
    `  <testsuite name="dataapi toolkit faults" tests="${list.length}" failures="0" errors="0" skipped="0" time="0.000">`,
  ];
  for (const f of list)
    out.push(
      `    <testcase classname="${xmlAttr(`toolkit-fault.${f.operation}`)}" name="${xmlAttr(f.check)}" time="0.000">`,
      `      <system-out>${xmlText(`toolkit fault (not a failure of the target): ${f.purpose}\n${f.request.method} ${f.request.url}: ${expectedGotOf(f.expected, f.actual)}\n${f.why}`)}</system-out>`,
      '    </testcase>',
    );
  out.push('  </testsuite>');
  return out;
}

/** Coverage as properties of an empty suite: CI tools show them without counting fake tests. */
function coverageSuite(report: ContractReport): string[] {
  const c = report.coverageReport;
  const prop = (name: string, value: string) =>
    `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`;
  const tally = (x: { covered: number; total: number }) =>
    `${x.covered}/${x.total} (${percent(x)})`;
  const missedStatuses = Object.entries(c.statuses)
    .filter(([, s]) => s.missed.length)
    .map(([op, s]) => `${op}: ${s.missed.join(', ')}`);
  const missedCodes = Object.entries(c.businessCodes)
    .filter(([, g]) => g.missed.length)
    .map(([name, g]) => `${name}: ${g.missed.join(', ')}`);
  const missedParams = Object.entries(c.parameters)
    .filter(([, p]) => p.missed.length)
    .map(([op, p]) => `${op}: ${p.missed.join(', ')}`);
  return [
    '  <testsuite name="dataapi contract coverage" tests="0" failures="0" errors="0" skipped="0" time="0.000">',
    '    <properties>',
    prop('coverage.operations', tally(c.totals.operations)),
    prop('coverage.previews', tally(c.totals.previews)),
    prop('coverage.statuses', tally(c.totals.statuses)),
    prop('coverage.businessCodes', tally(c.totals.businessCodes)),
    prop('coverage.parameters', tally(c.totals.parameters)),
    ...(c.fuzz
      ? [
          prop('coverage.fuzz.enumValues', tally(c.fuzz.totals.enumValues)),
          prop('coverage.fuzz.presence', tally(c.fuzz.totals.presence)),
          prop('coverage.fuzz.boundaries', tally(c.fuzz.totals.boundaries)),
        ]
      : []),
    ...(report.fuzz
      ? [prop('fuzz.runs', String(report.fuzz.runs)), prop('fuzz.seed', String(report.fuzz.seed))]
      : []),
    '    </properties>',
    `    <system-out>${xmlText(
      [
        `never reached operations: ${c.operations.missed.join(', ') || 'none'}`,
        `never reached previews: ${c.previews.missed.join(', ') || 'none'}`,
        `never reached HTTP statuses:${missedStatuses.length ? `\n  ${missedStatuses.join('\n  ')}` : ' none'}`,
        `never reached business codes:${missedCodes.length ? `\n  ${missedCodes.join('\n  ')}` : ' none'}`,
        `never sent parameters:${missedParams.length ? `\n  ${missedParams.join('\n  ')}` : ' none'}`,
      ].join('\n'),
    )}</system-out>`,
    '  </testsuite>',
  ];
}

const firstLine = (s: string) => s.split('\n', 1)[0] ?? '';
