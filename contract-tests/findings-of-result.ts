/**
 * The one finding record (model/finding.ts) of a check's result and of a run, as reporters read
 * it: the `findings` a run wrote (the suite's, the proxy's), or, for results files written before
 * that field existed, the same record derived from their older fields: a failure, the
 * description warnings, the toolkit faults and what was not tested.
 */
import {
  Diagnostics,
  type CheckCode,
  type Finding,
  type FindingInput,
  type NotTestedCode,
} from 'dataapi/model';
import type {
  CheckResult,
  ContractRunResult,
  DescriptionWarning,
  ToolkitFault,
} from './results.ts';

/** A description warning as the record (its severity still to be decided by a sink). */
export function warningInput(w: DescriptionWarning): FindingInput {
  return {
    code: w.code,
    message: w.message,
    pointer: w.pointer,
    ...(w.operation !== undefined ? { operation: w.operation } : {}),
    ...(w.file !== undefined ? { file: w.file } : {}),
    ...(w.line !== undefined ? { line: w.line } : {}),
  };
}

/**
 * A toolkit fault as the record. Its message says what the request was for, then why the suite
 * built it wrong: two faults of one check differ by their requests, which the sink's key (code,
 * place and message) must see.
 */
export function faultInput(
  f: Omit<ToolkitFault, 'code' | 'check'>,
  variant: string,
  pointer?: string,
): FindingInput<'toolkit-fault'> {
  return {
    code: 'toolkit-fault',
    message: `${f.purpose}: ${f.message}`,
    operation: f.operation,
    variant,
    ...(pointer !== undefined ? { pointer } : {}),
    evidence: {
      request: { method: f.request.method, url: f.request.url, purpose: f.purpose },
      expected: f.expected,
      actual: f.actual,
    },
  };
}

/** `not tested (missing-test-data): <reason>`: the skipped result's message of a lack. */
export const notTestedMessage = (code: string, reason: string): string =>
  `not tested (${code}): ${reason}`;

/** The findings of a check's result: its own, else derived from the fields it was written with. */
export function findingsOfCheck(r: CheckResult): Finding[] {
  return r.findings ?? upgradeCheck(r);
}

function upgradeCheck(r: CheckResult): Finding[] {
  const out: Finding[] = [];
  const at = { operation: r.operation, variant: r.variant };
  if (r.status === 'failed') {
    const code = r.check as CheckCode;
    // The first violation's message, request and values (its lines are among the errors)...
    out.push({
      code,
      severity: 'failure',
      message: r.message,
      ...at,
      evidence: {
        ...(r.request ? { request: { method: r.request.method, url: r.request.url } } : {}),
        ...(r.expected !== undefined ? { expected: r.expected } : {}),
        ...(r.actual !== undefined ? { actual: r.actual } : {}),
        errors: [],
        ...(r.excerpt !== undefined ? { excerpt: r.excerpt } : {}),
      },
    });
    // ...then each line as written, a finding of its own: lines two runs share are one.
    for (const line of r.errors)
      out.push({ code, severity: 'failure', message: line, ...at, evidence: { errors: [line] } });
  }
  for (const w of r.warnings ?? []) out.push({ ...warningInput(w), severity: 'warning' });
  for (const f of r.toolkitFaults ?? [])
    out.push({ ...faultInput(f, r.variant), severity: 'not-tested' });
  if (r.status === 'skipped' && r.notTested) {
    const prefix = notTestedMessage(r.notTested, '');
    out.push({
      code: r.notTested,
      severity: 'not-tested',
      message: r.message.startsWith(prefix) ? r.message.slice(prefix.length) : r.message,
      ...at,
    });
  }
  return out;
}

/**
 * The findings of a run: its own, else derived from results written before: the run's
 * description warnings, then every check's failures, toolkit faults and lacks.
 */
export function findingsOfRun(result: ContractRunResult): Finding[] {
  if (result.findings) return result.findings;
  const sink = new Diagnostics();
  sink.addDecided(
    (result.warnings ?? []).map((w) => ({ ...warningInput(w), severity: 'warning' })),
  );
  for (const r of result.results) sink.addDecided(findingsOfCheck(r).filter((f) => !isWarning(f)));
  return sink.sorted();
}

/**
 * A check's failure: a failure with the exchange it rests on. A description warning the user set
 * to failure (--severity CODE=failure) carries none: it stays listed with the warnings.
 */
export const isFailure = (f: Finding): boolean =>
  f.severity === 'failure' && f.evidence !== undefined;

export const isToolkitFault = (f: Finding): boolean => f.code === 'toolkit-fault';

/** What the run lacked to test a check (no-credentials, missing-test-data, writes-not-allowed). */
export const isNotTested = (f: Finding): f is Finding<NotTestedCode> =>
  f.severity === 'not-tested' && !isToolkitFault(f);

/** What the description gets wrong or leaves unsaid (or a check the user set to warning). */
export const isWarning = (f: Finding): boolean =>
  !isFailure(f) && !isToolkitFault(f) && !isNotTested(f);
