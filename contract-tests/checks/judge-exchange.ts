/**
 * The one judge of an exchange, for the suite, fuzzing, the proxy and `--from-har` alike: the
 * registry's checks judge it, each violation becomes the one finding record (model/finding.ts,
 * through findingInputOf), and the sink decides its severity from the catalogue and the user's
 * settings, never the caller. The suite judges one check at a time (judgeCheck), with a route for
 * its own step. Judging runs per exchange (the proxy's threads): the severity rule is made once per
 * settings, and a sink per exchange is one small object.
 */
import {
  Diagnostics,
  runSeverity,
  type CheckCode,
  type DiagnosticCode,
  type DiagnosticSeverity,
  type Finding,
  type FindingInput,
  type SeverityRule,
  type SeveritySettings,
  type WarningCode,
} from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import type { CheckContext, Judge, Violation } from './judge.ts';
import { checkDefinition, type CheckName } from './registry.ts';
import { findingInputOf } from './verdict.ts';

/**
 * A finding with the check that found it: the record's code is the description's where the
 * description is to blame (`undeclared-status` found by status), and reports group by check.
 */
export interface CheckFinding {
  check: CheckName;
  finding: Finding;
}

/** One violation as the judge hands it to a caller's route, before the sink takes it. */
export interface Routed {
  check: CheckName;
  violation: Violation;
  /** The violation as the record (redacted, with a redactor). */
  input: FindingInput<CheckCode | WarningCode>;
  /** The severity the sink decides for its code; never `off` (what is off is not routed). */
  severity: DiagnosticSeverity;
}

/**
 * What the sink takes for a violation: its own record, or another (the suite puts a failure of a
 * request it built wrong down to a toolkit fault, recheck.ts). Called for every violation the
 * user did not turn off, in order, repeats included (the sink drops those after).
 */
export type Route = (routed: Routed) => FindingInput;

/** A check's judgement of the probes and its findings (`route`: see Route). */
export function judgeCheck(
  check: CheckName,
  ctx: CheckContext,
  sink: Diagnostics,
  options: { redactor?: Redactor; route?: Route } = {},
): { judgement: ReturnType<Judge>; findings: CheckFinding[] } {
  const { redactor, route } = options;
  const judgement = checkDefinition(check).judge(ctx);
  const findings: CheckFinding[] = [];
  for (const v of judgement.violations) {
    const own = findingInputOf(check, v, ctx.op, ctx.set.variant);
    const input = redactor ? redacted(own, v, redactor) : own;
    let taken: FindingInput = input;
    if (route) {
      const severity = sink.decide(input.code);
      if (severity === 'off') continue;
      taken = route({ check, violation: v, input, severity });
    }
    const finding = sink.add(taken);
    if (finding) findings.push({ check, finding });
  }
  return { judgement, findings };
}

const rules = new WeakMap<SeveritySettings, SeverityRule>();
const catalogueRule = runSeverity(undefined);

/** A run's severity rule for these settings, made once (a sink is made per exchange). */
export function severityRule(settings: SeveritySettings | undefined): SeverityRule {
  if (!settings) return catalogueRule;
  let rule = rules.get(settings);
  if (!rule) rules.set(settings, (rule = runSeverity(settings)));
  return rule;
}

/** The sink one exchange's findings are decided in. */
export const exchangeSink = (settings: SeveritySettings | undefined) =>
  new Diagnostics(severityRule(settings));

/**
 * The findings of `checks` on the probes of `ctx` (one exchange, or one operation's), in check
 * order; what the user turned off is left out. With a redactor (traffic), no key reaches a
 * finding, and its excerpt is the violation's own (the exchange's travels with its record).
 */
export function judgeExchange(
  ctx: CheckContext,
  checks: readonly CheckName[],
  sink: Diagnostics,
  redactor?: Redactor,
): CheckFinding[] {
  const found: CheckFinding[] = [];
  const options = redactor ? { redactor } : {};
  for (const check of checks) found.push(...judgeCheck(check, ctx, sink, options).findings);
  return found;
}

function redacted<Code extends DiagnosticCode>(
  input: FindingInput<Code>,
  v: Violation,
  redactor: Redactor,
): FindingInput<Code> {
  const { request, status, expected } = input.evidence!;
  return {
    ...input,
    message: redactor.composed(input.message),
    evidence: {
      ...(request ? { request } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(expected !== undefined ? { expected } : {}),
      actual: redactor.composed(v.actual),
      ...(v.errors?.length ? { errors: v.errors.map((e) => redactor.composed(e)) } : {}),
      ...(v.excerpt !== undefined ? { excerpt: redactor.composed(v.excerpt) } : {}),
    },
  };
}
