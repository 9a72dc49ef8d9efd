/**
 * The one judge of an exchange, for the suite, fuzzing, the proxy and `--from-har` alike: the
 * registry's checks judge it, each violation becomes the one finding record (model/finding.ts,
 * through findingInputOf), and the sink decides its severity from the catalogue and the user's
 * settings, never the caller. Judging runs per exchange (the proxy's threads): the severity rule is
 * made once per settings, and a sink per exchange is one small object.
 */
import {
  Diagnostics,
  runSeverity,
  type Finding,
  type FindingInput,
  type SeverityRule,
  type SeveritySettings,
} from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import type { CheckContext, Violation } from './judge.ts';
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
  for (const check of checks)
    for (const v of checkDefinition(check).judge(ctx).violations) {
      const input = findingInputOf(check, v, ctx.op, ctx.set.variant);
      const finding = sink.add(redactor ? redacted(input, v, redactor) : input);
      if (finding) found.push({ check, finding });
    }
  return found;
}

function redacted(input: FindingInput, v: Violation, redactor: Redactor): FindingInput {
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
