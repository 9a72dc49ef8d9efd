/**
 * Sending one generated request of the fuzz through the run's transport and judging it: a failure
 * already found (its signature known) is not new, a failure the recheck blames on the request
 * itself is a toolkit fault, and a successful valid request's links are followed.
 */
import type { Operation } from 'dataapi/model';
import { findOperation } from 'dataapi/runtime/shared';
import { followUp, linksOf, misfits } from '../links.ts';
import { ok, type Probe, type Role } from '../probe.ts';
import { expectedGotOf } from '../checks/verdict.ts';
import { askedPageSize, sendProbe, type SendExtra } from '../probes.ts';
import { faultOf, recheck, recheckable } from '../recheck.ts';
import { validRequests, type RequestSpec } from '../requests.ts';
import { linkSource } from '../sequences.ts';
import { MAX_FINDINGS, type Attempt, type FuzzContext } from './context.ts';
import { judgeProbe, signature, type Failure } from './judge.ts';
import type { Mutation } from './mutations.ts';

/** Sends one request of the fuzz; undefined when nothing new failed, 'stop' when refused. */
async function send(
  ctx: FuzzContext,
  role: Role,
  target: Operation,
  spec: RequestSpec,
  purpose: string,
  extra: SendExtra = {},
): Promise<{ probe: Probe; failures: Failure[] } | 'stop'> {
  const probe = await sendProbe(
    ctx.model,
    ctx.t,
    ctx.op,
    'main',
    role,
    target,
    spec,
    purpose,
    extra,
  );
  ctx.stats.requests++;
  if (probe.exchange.budgetRefused) {
    ctx.stats.stopped = probe.exchange.record.error ?? 'the request was refused';
    return 'stop';
  }
  const judged = judgeProbe(ctx.model, probe, ctx.t.config);
  ctx.warnings.push(...judged.warnings);
  if (judged.failures.length === 0 || !recheckable(probe))
    return { probe, failures: judged.failures };
  // Zero false failures: a request that is not what it was generated to be is the toolkit's fault.
  await recheck(ctx.model, ctx.t.config.appkey, probe);
  const failures = judged.failures.filter((f) => !faultOf(f.check, probe));
  if (failures.length < judged.failures.length && ctx.faults.length < MAX_FINDINGS)
    ctx.faults.push(probe);
  return { probe, failures };
}

export async function sendValid(
  ctx: FuzzContext,
  spec: RequestSpec,
  uncertain: boolean,
): Promise<Attempt | 'stop' | undefined> {
  const asked = askedPageSize(ctx.op, spec);
  const sent = await send(ctx, 'valid', ctx.op, spec, 'fuzz valid', {
    uncertain,
    generated: true,
    ...(asked !== undefined ? { pageSize: asked } : {}),
  });
  if (sent === 'stop') return 'stop';
  const fresh = sent.failures.filter((f) => !ctx.known.has(signature(f)));
  if (fresh.length > 0) return { probe: sent.probe, failures: fresh, spec, label: '' };
  if (!ok(sent.probe)) return undefined;
  // The links of the answer: each follow-up must succeed and conform like any request.
  for (const link of linksOf(ctx.op, sent.probe.exchange.record.status)) {
    const target = findOperation(ctx.model, link.target);
    if (target.writes && !ctx.t.config.allowWrites) continue;
    const next = followUp(link, linkSource(sent.probe), validRequests(ctx.model, target)[0]!);
    if (next.missing.length > 0) continue; // the schema check judges the answer's fields
    // Values the target's own schemas refuse: the fixed suite warns about the description.
    if (misfits(ctx.model, link, target, next.spec).length > 0) continue;
    ctx.stats.runs.link++;
    const after = await send(ctx, 'valid', target, next.spec, `fuzz link ${link.name}`);
    if (after === 'stop') return 'stop';
    const failed = after.failures.filter((f) => !ctx.known.has(signature(f, link.name)));
    if (failed.length > 0)
      return {
        probe: after.probe,
        failures: failed,
        spec,
        label: '',
        link: {
          name: link.name,
          target: target.id,
          request: next.spec,
          problem: `link ${link.name} -> ${target.id}: ${failed.map((f) => `${f.check}: ${expectedGotOf(f.expected, f.actual)}`).join('; ')}`,
        },
      };
  }
  return undefined;
}

export async function sendInvalid(
  ctx: FuzzContext,
  spec: RequestSpec,
  m: Mutation,
  uncertain: boolean,
): Promise<Attempt | 'stop' | undefined> {
  const sent = await send(ctx, 'negative', ctx.op, spec, `fuzz invalid: ${m.case.label}`, {
    negative: m.case,
    uncertain,
  });
  if (sent === 'stop') return 'stop';
  const fresh = sent.failures.filter((f) => !ctx.known.has(signature(f)));
  return fresh.length > 0
    ? { probe: sent.probe, failures: fresh, spec, label: '', negative: m.case }
    : undefined;
}
