/**
 * The checks: each judges the probes of one operation and variant and returns a CheckResult.
 * A check fails on the first violated expectation of any probe it covers (and lists the rest),
 * is skipped when it does not apply or the budget refused its requests, and passes otherwise.
 */
import type { CheckResult, DescriptionWarning } from '../results.ts';
import { answered, type CheckContext, type Judge } from './judge.ts';
import { checkDefinition, type CheckName } from './registry.ts';
import type { Probe } from '../probe.ts';
import type { SavedRequest } from '../saved.ts';
import { faultOf, recheck, recheckable, type ToolkitFault } from '../recheck.ts';
import { expectedGot, verdictsOf, warningOf } from './verdict.ts';

export { declaredResponse, type CheckContext } from './judge.ts';

/**
 * Rechecks the requests the suite built that this check finds at fault (recheck.ts), so that
 * runCheck can tell the toolkit's faults from the target's failures.
 */
export async function recheckViolations(check: CheckName, ctx: CheckContext): Promise<void> {
  for (const v of checkDefinition(check).judge(ctx).violations)
    if (!v.description && recheckable(v.probe))
      await recheck(ctx.model, ctx.config.appkey, v.probe);
}

/**
 * Judges the check's probes. `save` (--save-failures) turns the failing probe into the request a
 * saved test replays.
 */
export function runCheck(
  check: CheckName,
  ctx: CheckContext,
  save?: (probe: Probe) => SavedRequest | undefined,
): CheckResult {
  const judged = resourceMissing(check, ctx) ?? checkDefinition(check).judge(ctx);
  const { covered, skip } = judged;
  const verdicts = verdictsOf(check, judged.violations, ctx.config.severity);
  // A failure of a request the suite built wrong is the toolkit's fault (recheck.ts), not the
  // target's; the description's own faults are not rechecked.
  const faults: ToolkitFault[] = [];
  const violations = verdicts
    .filter((f) => f.severity === 'failure')
    .map((f) => f.violation)
    .filter((v) => {
      if (v.description) return true;
      const why = faultOf(check, v.probe);
      if (why === undefined) return true;
      const req = v.probe.exchange.record.request;
      faults.push({
        code: 'toolkit-fault',
        operation: ctx.op.id,
        check,
        purpose: req.purpose,
        request: { method: req.method, url: req.url },
        expected: v.expected,
        actual: v.actual,
        message: why,
      });
      return false;
    });
  const warnings: DescriptionWarning[] = [
    ...(check === 'status' ? (ctx.set.warnings ?? []) : []),
    ...verdicts.filter((f) => f.severity === 'warning').map((f) => warningOf(f, ctx.op)),
  ];
  const warned = {
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(faults.length > 0 ? { toolkitFaults: faults } : {}),
  };
  const exchanges = covered.map((p) => p.exchange.record);
  const base = {
    operation: ctx.op.id,
    variant: ctx.set.variant,
    check,
    durationMs: Math.round(exchanges.reduce((s, e) => s + e.durationMs, 0)),
    waitedMs: Math.round(exchanges.reduce((s, e) => s + e.waitedMs, 0)),
    exchanges,
    ...warned,
  };
  if (violations.length > 0) {
    const first = violations[0]!;
    const req = first.probe.exchange.record.request;
    const saved = save?.(first.probe);
    return {
      ...base,
      ...(saved ? { saved } : {}),
      ...(first.probe.fuzz ? { fuzz: first.probe.fuzz } : {}),
      status: 'failed',
      message: expectedGot(first),
      request: { method: req.method, url: req.url },
      expected: first.expected,
      actual: first.actual,
      errors: violations
        .flatMap((v) =>
          v.errors && v.errors.length > 0
            ? v.errors.map((e) => `${v.probe.exchange.record.request.purpose}: ${e}`)
            : [expectedGot(v)],
        )
        .slice(0, 20),
      ...(first.excerpt !== undefined
        ? { excerpt: first.excerpt }
        : first.probe.exchange.record.excerpt !== undefined
          ? { excerpt: first.probe.exchange.record.excerpt }
          : {}),
    };
  }
  if (judged.notTested)
    return {
      ...base,
      status: 'skipped',
      message: `not tested (${judged.notTested.code}): ${judged.notTested.reason}`,
      notTested: judged.notTested.code,
      errors: [],
    };
  const refused = covered.filter((p) => p.exchange.budgetRefused);
  const unanswered = check !== 'server-errors' && covered.length > 0 && !covered.some(answered);
  if (skip || covered.length === 0 || refused.length > 0 || unanswered) {
    const message =
      skip ??
      (refused.length > 0
        ? refused[0]!.exchange.record.error!
        : unanswered
          ? `no response to judge (${covered[0]!.exchange.record.error ?? 'none'}; see server-errors)`
          : 'no request to judge');
    return { ...base, status: 'skipped', message, errors: [] };
  }
  const main = covered[0]!.exchange.record.request;
  return {
    ...base,
    status: 'passed',
    message: [
      `${covered.length} request(s) conform`,
      ...(warnings.length > 0 ? [`${warnings.length} description warning(s)`] : []),
      ...(faults.length > 0 ? [`${faults.length} toolkit fault(s), not the target's`] : []),
    ].join('; '),
    request: { method: main.method, url: main.url },
    errors: [],
  };
}

/**
 * Checks whose probes mean something only on a resource the target has (its refusals of a key,
 * of invalid input, of a wrong method): when every valid request got 404 (a resource the suite
 * made up, or a route the target does not serve), their answers say nothing of the operation,
 * and they are not tested either; the status check says whether the 404 itself is a failure.
 */
const ON_THE_RESOURCE = new Set<CheckName>(['auth', 'negative', 'method-path', 'paging']);

function resourceMissing(check: CheckName, ctx: CheckContext): ReturnType<Judge> | undefined {
  if (!ON_THE_RESOURCE.has(check) || ctx.set.variant !== 'main') return undefined;
  const valid = ctx.set.probes.filter((p) => p.op === ctx.op && p.role === 'valid');
  if (valid.length === 0 || !valid.every((p) => p.exchange.record.status === 404)) return undefined;
  const madeUp = valid.every((p: Probe) => p.invented || p.uncertain);
  return {
    covered: [],
    violations: [],
    notTested: {
      code: 'missing-test-data',
      reason: madeUp
        ? `every valid request named a resource the suite made up and got HTTP 404, so ${check} has no resource to judge on`
        : `every valid request got HTTP 404 (the target does not serve the operation there; status judges that), so ${check} has nothing to judge on`,
    },
  };
}
