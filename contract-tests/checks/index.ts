/**
 * The checks: each judges the probes of one operation and variant and returns a CheckResult.
 * A check fails on the first violated expectation of any probe it covers (and lists the rest),
 * is skipped when it does not apply or the budget refused its requests, and passes otherwise.
 */
import type { CheckResult, DescriptionWarning } from '../results.ts';
import { faultInput, notTestedMessage, warningInput } from '../findings-of-result.ts';
import {
  answered,
  onMissingResource,
  type CheckContext,
  type Judge,
  type Violation,
} from './judge.ts';
import type { CheckName } from './registry.ts';
import type { Probe } from '../probe.ts';
import type { SavedRequest } from '../saved.ts';
import { faultOf, recheck, recheckable, type ToolkitFault } from '../recheck.ts';
import { excerptOf } from '../record-excerpt.ts';
import { expectedGot, warningOf } from './verdict.ts';
import { exchangeSink, judgeCheck, type Route } from './judge-exchange.ts';

export { declaredResponse, type CheckContext } from './judge.ts';

/**
 * Rechecks the requests the suite built that this check finds at fault (recheck.ts), so that
 * runCheck can tell the toolkit's faults from the target's failures. The one judge finds them
 * (in a sink of its own: runCheck judges again once they are rechecked); what the user turned
 * off is not judged, so not rechecked.
 */
export async function recheckViolations(check: CheckName, ctx: CheckContext): Promise<void> {
  const suspects: Probe[] = [];
  judgeCheck(check, ctx, exchangeSink(ctx.config.severity), {
    route: ({ violation: v, input }) => {
      if (!v.description && recheckable(v.probe)) suspects.push(v.probe);
      return input;
    },
  });
  for (const probe of suspects) await recheck(ctx.model, ctx.config.appkey, probe);
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
  const { op } = ctx;
  const variant = ctx.set.variant;
  // The one record of what the check found: the one judge (judge-exchange.ts) turns each
  // violation into it, and the sink decides its severity by the run's rule (the catalogue's, or
  // the user's setting). The suite's own step is the route: a warning is also listed as one, and a
  // failure of a request the suite built wrong is the toolkit's fault (recheck.ts), not the
  // target's; the description's own faults are not rechecked.
  const sink = exchangeSink(ctx.config.severity);
  const warnings: DescriptionWarning[] = [...(check === 'status' ? (ctx.set.warnings ?? []) : [])];
  for (const w of warnings) sink.add(warningInput(w));
  const violations: Violation[] = [];
  const faults: ToolkitFault[] = [];
  const route: Route = ({ violation: v, input, severity }) => {
    if (severity !== 'failure') {
      warnings.push(warningOf({ check, code: input.code, severity: 'warning', violation: v }, op));
      return input;
    }
    const why = v.description ? undefined : faultOf(check, v.probe);
    if (why === undefined) {
      violations.push(v);
      return input;
    }
    const req = v.probe.exchange.record.request;
    const fault: ToolkitFault = {
      code: 'toolkit-fault',
      operation: op.id,
      check,
      purpose: req.purpose,
      request: { method: req.method, url: req.url },
      expected: v.expected,
      actual: v.actual,
      message: why,
    };
    faults.push(fault);
    return faultInput(fault, variant, op.pointer);
  };
  // A check on a resource the target lacks judges nothing (its violations would say nothing).
  const judged = resourceMissing(check, ctx) ?? judgeCheck(check, ctx, sink, { route }).judgement;
  const { covered, skip } = judged;
  if (violations.length === 0 && judged.notTested)
    sink.add({
      code: judged.notTested.code,
      message: judged.notTested.reason,
      operation: op.id,
      variant,
      pointer: op.pointer,
    });
  const warned = {
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(faults.length > 0 ? { toolkitFaults: faults } : {}),
    findings: [...sink.all],
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
        : excerptOf(first.probe.exchange.record) !== undefined
          ? { excerpt: excerptOf(first.probe.exchange.record)! }
          : {}),
    };
  }
  if (judged.notTested)
    return {
      ...base,
      status: 'skipped',
      message: notTestedMessage(judged.notTested.code, judged.notTested.reason),
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
/** The probes each of those checks judges. */
const PROBES_OF: Partial<Record<CheckName, readonly string[]>> = {
  auth: ['no-key', 'wrong-key'],
  negative: ['negative'],
  'method-path': ['wrong-method'],
  paging: ['paging'],
};

function resourceMissing(check: CheckName, ctx: CheckContext): ReturnType<Judge> | undefined {
  if (!ON_THE_RESOURCE.has(check) || ctx.set.variant !== 'main') return undefined;
  const valid = ctx.set.probes.filter((p) => p.op === ctx.op && p.role === 'valid');
  if (valid.length === 0 || !valid.every((p) => p.exchange.record.status === 404))
    return lostOnTheWay(check, ctx);
  // A 405 answers the route, not the resource: its Allow is owed whether the resource exists or
  // not (RFC 9110 §15.5.6), so it is judged on a made-up one too (PowerDNS, docs/field.md).
  if (check === 'method-path' && ctx.set.probes.some((p) => wrongMethodRefused(ctx, p)))
    return undefined;
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

/** The operation's wrong-method probe, answered 405: its router knew the path and not the method. */
const wrongMethodRefused = (ctx: CheckContext, p: Probe) =>
  p.op === ctx.op && p.role === 'wrong-method' && p.exchange.record.status === 405;

/**
 * A check whose every probe named a resource the suite no longer knows (one it made up, one a
 * request before deleted, one renamed to an identifier it could not read back) and got 404: the
 * refusal it provokes cannot show, so it is not tested, rather than passed.
 */
function lostOnTheWay(check: CheckName, ctx: CheckContext): ReturnType<Judge> | undefined {
  const roles = PROBES_OF[check] ?? [];
  const mine = ctx.set.probes.filter((p) => p.op === ctx.op && roles.includes(p.role));
  if (mine.length === 0 || !mine.every(onMissingResource)) return undefined;
  return {
    covered: [],
    violations: [],
    notTested: {
      code: 'missing-test-data',
      reason: `every ${check} request named a resource the suite no longer knows (made up, deleted before, or renamed to an identifier it could not read back) and got HTTP 404, so ${check} has nothing to judge on`,
    },
  };
}
