/**
 * How a check's violation is written, once, for the suite, fuzzing, the proxy and `--from-har`:
 * its code (the description's warning code when the description is to blame, else the check's
 * own), its message, and its evidence. Its severity is the sink's (model/finding.ts), never the
 * caller's.
 */
import { type CheckCode, type FindingInput, type Operation, type WarningCode } from 'dataapi/model';
import { excerptOf } from '../record-excerpt.ts';
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

/** "expected X, got Y": the one wording of what a check expected and what it got (the proxy's live line too). */
export const expectedGotOf = (expected: string, actual: string): string =>
  `expected ${expected}, got ${actual}`;

/** "<what the request was for>: expected X, got Y": the one wording of a violation. */
export const expectedGot = (v: Violation): string =>
  `${v.probe.exchange.record.request.purpose}: ${expectedGotOf(v.expected, v.actual)}`;

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
      ...((v.excerpt ?? excerptOf(record)) !== undefined
        ? { excerpt: v.excerpt ?? excerptOf(record) }
        : {}),
    },
  };
}
