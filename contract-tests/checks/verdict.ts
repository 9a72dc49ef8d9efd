/**
 * The one place a check's violation becomes a verdict, for the suite, fuzzing, the proxy,
 * `--from-har` and `--compare-mock` alike: its code (the description's warning code when the
 * description is to blame, else the check's own), its severity from the catalogue and the user's
 * settings (model/diagnostics.ts severityOf), never from the caller, and its message, written once.
 */
import {
  severityOf,
  type CheckCode,
  type FindingInput,
  type Operation,
  type SeveritySettings,
  type WarningCode,
} from 'dataapi/model';
import type { DescriptionWarning } from '../warnings.ts';
import type { CheckName } from './definitions.ts';
import type { Violation } from './judge.ts';

export interface Verdict {
  check: CheckName;
  code: CheckCode | WarningCode;
  /** A failure fails the run; a warning is listed (and fails it only under --strict). */
  severity: 'failure' | 'warning';
  violation: Violation;
}

/** "<what the request was for>: expected X, got Y": the one wording of a violation. */
export const expectedGot = (v: Violation): string =>
  `${v.probe.exchange.record.request.purpose}: expected ${v.expected}, got ${v.actual}`;

/** The verdict on one violation of a check; undefined when the user turned its code off. */
export function verdictOf(
  check: CheckName,
  v: Violation,
  settings: SeveritySettings | undefined,
): Verdict | undefined {
  const code = v.description?.code ?? check;
  const severity = severityOf(code, settings);
  if (severity === 'off') return undefined;
  return { check, code, severity: severity === 'failure' ? 'failure' : 'warning', violation: v };
}

/** The verdicts on a check's violations, in their order. */
export const verdictsOf = (
  check: CheckName,
  violations: readonly Violation[],
  settings: SeveritySettings | undefined,
): Verdict[] =>
  violations.flatMap((v) => {
    const verdict = verdictOf(check, v, settings);
    return verdict ? [verdict] : [];
  });

/**
 * A verdict of severity warning as a run lists it: the description's pointer, or for a check
 * the user set to warning, the operation's.
 */
export function warningOf(verdict: Verdict, op: Operation): DescriptionWarning {
  const v = verdict.violation;
  return {
    code: verdict.code,
    pointer: v.description?.pointer ?? op.pointer,
    operation: op.id,
    message: v.description?.message ?? expectedGot(v),
  };
}

/**
 * A check's violation as the one finding record (model/finding.ts), before a sink decides its
 * severity: the description's code, pointer and message where the description is to blame, else
 * the check's code at the operation, with the exchange as evidence.
 */
export function findingInputOf(
  check: CheckName,
  v: Violation,
  op: Operation,
  variant: string,
): FindingInput<CheckCode | WarningCode> {
  const record = v.probe.exchange.record;
  const req = record.request;
  return {
    code: v.description?.code ?? check,
    message: v.description?.message ?? expectedGot(v),
    operation: op.id,
    variant,
    pointer: v.description?.pointer ?? op.pointer,
    evidence: {
      request: { method: req.method, url: req.url, purpose: req.purpose },
      ...(record.status !== undefined ? { status: record.status } : {}),
      expected: v.expected,
      actual: v.actual,
      ...(v.errors && v.errors.length > 0 ? { errors: v.errors } : {}),
      ...((v.excerpt ?? record.excerpt) !== undefined
        ? { excerpt: v.excerpt ?? record.excerpt }
        : {}),
    },
  };
}
