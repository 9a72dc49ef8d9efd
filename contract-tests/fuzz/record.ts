/**
 * The end of one operation's fuzz: its findings join the operation's probes (the checks report
 * them, with the seed and how to replay them), and its statistics and warnings join the set.
 */
import { findOperation } from 'dataapi/runtime/shared';
import { isProbeOfRefusal } from '../checks/judge.ts';
import type { FuzzContext } from './context.ts';
import type { FuzzFinding } from './types.ts';
import { savedRequest } from '../requests.ts';
import { wireOf } from './wire.ts';

/** The findings join the operation's probes (the checks report them); stats and warnings too. */
export function recordFindings(ctx: FuzzContext): void {
  const { op, set, fuzz, t } = ctx;
  for (const { attempt, kind, run, shrinks } of ctx.found) {
    const target = attempt.link ? findOperation(ctx.model, attempt.link.target) : op;
    const { wire, curl } = wireOf(
      ctx.model,
      t.config.baseUrl,
      target,
      attempt.link ? attempt.link.request : attempt.spec,
      op.auth.transports.length > 0,
    );
    const finding: FuzzFinding = {
      seed: fuzz.seed,
      runs: fuzz.runs,
      operation: op.id,
      kind,
      run,
      shrinks,
      request: savedRequest(attempt.spec),
      ...(attempt.negative
        ? {
            violation: {
              label: attempt.negative.label,
              target: attempt.negative.target,
              kind: attempt.negative.kind,
            },
          }
        : {}),
      ...(attempt.link
        ? {
            link: {
              name: attempt.link.name,
              target: attempt.link.target,
              request: savedRequest(attempt.link.request),
            },
          }
        : {}),
      wire,
      curl,
    };
    const probe = attempt.probe;
    probe.fuzz = finding;
    probe.exchange.record.request.purpose = `fuzz ${kind} request (--seed ${fuzz.seed}, run ${run} of ${fuzz.runs}, shrunk in ${shrinks} requests)${kind === 'invalid' ? `: ${attempt.label}` : attempt.link ? `: link ${attempt.link.name} -> ${attempt.link.target}` : ''}`;
    if (attempt.link) {
      probe.role = 'lifecycle';
      set.lifecycle ??= { ran: true, problems: [], note: 'links followed' };
      set.lifecycle.ran = true;
      set.lifecycle.problems.push(attempt.link.problem);
      set.lifecycle.probe ??= probe;
    }
    set.probes.push(probe);
  }
  // The checks report them as toolkit faults, with the request that shows it.
  set.probes.push(...ctx.faults.filter((p) => !set.probes.includes(p)));
  ctx.stats.findings = ctx.found.length;
  set.fuzz = ctx.stats;
  // One warning per code and place: thousands of generated requests say the same thing.
  const seen = new Set((set.warnings ?? []).map((w) => `${w.code} ${w.pointer}`));
  const warnings = [...(set.warnings ?? [])];
  // A status the fixed refusal probes also got is warned about by the status check already.
  const got = new Set(set.probes.filter(isProbeOfRefusal).map((p) => p.exchange.record.status));
  for (const w of ctx.warnings) {
    const status = w.code === 'undeclared-status' ? /^HTTP (\d+)/.exec(w.message)?.[1] : undefined;
    if (status !== undefined && got.has(Number(status))) continue;
    const key = `${w.code} ${w.pointer}`;
    if (!seen.has(key)) warnings.push({ ...w, message: `fuzzing: ${w.message}` });
    seen.add(key);
  }
  if (warnings.length > 0) set.warnings = warnings;
}
