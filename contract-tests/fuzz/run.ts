/**
 * Property-based fuzzing of one operation (`--fuzz N`): N generated valid requests, then N invalid
 * ones, each sent through the run's transport (pacing, budget) and judged by the existing checks;
 * a successful valid request's links are followed too. fast-check drives it (`fc.check` with the
 * operation's seed): the first failure is shrunk to a minimal request, then the remaining runs
 * look for a failure of another kind (at most MAX_FINDINGS per kind). Shrinking spends at most
 * MAX_SHRINK_REQUESTS requests per failure. The failing requests join the operation's probes, so
 * the checks report them like any other, with the seed and how to replay them.
 */
import fc from 'fast-check';
import { allParameters, type Operation, type ServiceModel } from 'dataapi/model';
import { findOperation } from 'dataapi/runtime/shared';
import { hashText } from 'dataapi/runtime/sampler';
import type { Transport } from '../http.ts';
import { followUp, linksOf, misfits } from '../links.ts';
import { ok, type Probe, type ProbeSet, type Role } from '../probe.ts';
import { askedPageSize, sendProbe, type SendExtra } from '../probes.ts';
import { validRequests, type RequestSpec } from '../requests.ts';
import { linkSource } from '../sequences.ts';
import type { DescriptionWarning } from '../warnings.ts';
import type { NegativeCase } from '../negatives.ts';
import { validArbitrary, schemaErrors, unsendable, unusable } from './generate.ts';
import { TAKEN_ELSEWHERE, takenElsewhere } from '../path-values.ts';
import { judgeProbe, signature, type Failure } from './judge.ts';
import { isProbeOfRefusal } from '../checks/judge.ts';
import { invalidArbitrary, type Mutation } from './mutations.ts';
import { FuzzTally } from './tally.ts';
import { simplify } from './simplify.ts';
import type { FuzzConfig, FuzzFinding, FuzzKind, FuzzStats } from './types.ts';
import { wireOf } from './wire.ts';
import { faultOf, recheck, recheckable } from '../recheck.ts';

export const MAX_SHRINK_REQUESTS = 100;
/** Requests the last pass (simplify.ts) may spend on a failure. */
export const MAX_SIMPLIFY_REQUESTS = 40;
export const MAX_FINDINGS = 3;

/** An operation's own seed: the same for a given run seed whatever else the run selects. */
export function operationSeed(seed: number, operation: string): number {
  return hashText(`${seed}\u0000${operation}`) | 0;
}

interface Attempt {
  /** The request that failed (the follow-up's for a link) and its failures. */
  probe: Probe;
  failures: Failure[];
  spec: RequestSpec;
  label: string;
  negative?: NegativeCase;
  /** Requests the last simplifying pass spent. */
  shrinks?: number;
  link?: { name: string; target: string; request: RequestSpec; problem: string };
}

interface Ctx {
  model: ServiceModel;
  op: Operation;
  t: Transport;
  set: ProbeSet;
  fuzz: FuzzConfig;
  stats: FuzzStats;
  tally: FuzzTally;
  warnings: DescriptionWarning[];
  found: { attempt: Attempt; kind: FuzzKind; run: number; shrinks: number }[];
  /** Generated requests the recheck found were not what they were meant to be (toolkit faults). */
  faults: Probe[];
  known: Set<string>;
}

export async function fuzzOperation(
  model: ServiceModel,
  op: Operation,
  set: ProbeSet,
  t: Transport,
  fuzz: FuzzConfig,
): Promise<void> {
  const seed = operationSeed(fuzz.seed, op.id);
  const tally = new FuzzTally(model, op);
  const stats: FuzzStats = {
    seed,
    runs: { valid: 0, invalid: 0, link: 0 },
    requests: 0,
    shrinkRequests: 0,
    discarded: 0,
    findings: 0,
    coverage: tally.data,
  };
  const ctx: Ctx = {
    model,
    op,
    t,
    set,
    fuzz,
    stats,
    tally,
    warnings: [],
    found: [],
    faults: [],
    known: new Set(),
  };
  const first = set.probes.find((p) => p.role === 'valid');
  const firstSpec = first?.spec ?? validRequests(model, op)[0]!;
  const uncertainPath = op.parameters.path.length > 0;

  await phase(ctx, 'valid', seed, validArbitrary(model, op), {
    check: (spec) => unusable(model, op, spec),
    label: () => 'a valid request',
    send: (spec) => sendValid(ctx, spec, uncertainPath),
    resend: (spec) => sendValid(ctx, spec, uncertainPath),
    keep: () => undefined,
    tally: (spec) => tally.valid(spec),
  });
  const invalid = invalidArbitrary(model, op, firstSpec);
  if (invalid)
    await phase(ctx, 'invalid', seed ^ 0x5bd1e995, invalid, {
      check: (g) =>
        unusable(model, op, g.base) ??
        (g.mutation.field
          ? (unsendable(g.mutation.field.loc, g.mutation.value) ??
            // Another operation's URL tests nothing of this one: another value is drawn.
            (g.mutation.field.loc === 'path' &&
            takenElsewhere(model, op.path, g.mutation.field.name, g.mutation.value)
              ? TAKEN_ELSEWHERE
              : undefined) ??
            (schemaErrors(model, g.mutation.field.schema, g.mutation.value).length === 0
              ? 'the mutated value is valid'
              : undefined))
          : undefined),
      label: (g) => g.mutation.case.label,
      send: (g) => sendInvalid(ctx, g.spec, g.mutation, first?.uncertain === true),
      resend: (spec, g) => sendInvalid(ctx, spec, g.mutation, first?.uncertain === true),
      keep: (g) => g.mutation.field?.key,
      tally: (g) => tally.invalid(g.mutation),
    });
  record(ctx);
}

/** The failure after simplify.ts's pass (its requests counted as shrinking). */
async function simpler<G>(ctx: Ctx, p: Phase<G>, last: Attempt, g: G): Promise<Attempt> {
  const wanted = signature(last.failures[0]!);
  let best = last;
  const { spent } = await simplify(
    ctx.model,
    ctx.op,
    last.spec,
    async (spec) => {
      const r = await p.resend(spec, g);
      if (!r || r === 'stop' || !r.failures.some((f) => signature(f) === wanted)) return false;
      best = { ...r, label: last.label, ...(last.negative ? { negative: last.negative } : {}) };
      return true;
    },
    p.keep(g),
    MAX_SIMPLIFY_REQUESTS,
  );
  return { ...best, shrinks: spent };
}

interface Phase<G> {
  /** Why a generated value cannot be sent (it is discarded), or undefined. */
  check(g: G): string | undefined;
  label(g: G): string;
  send(g: G): Promise<Attempt | 'stop' | undefined>;
  /** Sends a simpler request in place of the one generated as g. */
  resend(spec: RequestSpec, g: G): Promise<Attempt | 'stop' | undefined>;
  /** The field simplifying must leave as it is. */
  keep(g: G): string | undefined;
  tally(g: G): void;
}

async function phase<G>(
  ctx: Ctx,
  kind: 'valid' | 'invalid',
  seed: number,
  arb: fc.Arbitrary<G>,
  p: Phase<G>,
): Promise<void> {
  // An operation that takes nothing has one request to send, not N copies of it.
  const fixed = allParameters(ctx.op.parameters).length === 0 && !ctx.op.body;
  let remaining = fixed ? 1 : ctx.fuzz.runs;
  for (let round = 0; remaining > 0 && !ctx.stats.stopped && round < MAX_FINDINGS; round++) {
    const state = {
      runs: 0,
      shrinks: 0,
      last: undefined as Attempt | undefined,
      lastG: undefined as G | undefined,
      error: undefined as unknown,
    };
    const done = ctx.stats.runs[kind];
    const property = fc.asyncProperty(arb, async (g) => {
      if (ctx.stats.stopped || state.error !== undefined) return true;
      const shrinking = state.last !== undefined;
      if (shrinking && state.shrinks >= MAX_SHRINK_REQUESTS) return true;
      const why = p.check(g);
      if (why !== undefined && !shrinking) ctx.stats.discarded++;
      fc.pre(why === undefined);
      if (shrinking) state.shrinks++;
      else {
        state.runs++;
        ctx.stats.runs[kind]++;
        p.tally(g);
      }
      try {
        const attempt = await p.send(g);
        if (attempt === 'stop') return true;
        if (!attempt) return true;
        attempt.label = p.label(g);
        state.last = attempt;
        state.lastG = g;
        return false;
      } catch (err) {
        state.error = err;
        return true;
      }
    });
    const result = await fc.check(property, {
      seed: (seed + round * 7919) | 0,
      numRuns: remaining,
    });
    if (state.error !== undefined) throw state.error;
    remaining -= state.runs;
    ctx.stats.shrinkRequests += state.shrinks;
    if (!result.failed) break;
    if (!state.last) {
      ctx.warnings.push({
        code: 'fuzz-no-valid-value',
        operation: ctx.op.id,
        pointer: ctx.op.pointer,
        message: `fuzzing found too few ${kind} requests it could send (${ctx.stats.discarded} generated values were not valid for their schemas, not sendable, or another path template's URL): the schemas may admit almost no value`,
      });
      break;
    }
    const attempt = state.last.link ? state.last : await simpler(ctx, p, state.last, state.lastG!);
    state.shrinks += attempt.shrinks ?? 0;
    ctx.stats.shrinkRequests += attempt.shrinks ?? 0;
    for (const f of attempt.failures) ctx.known.add(signature(f, attempt.link?.name));
    ctx.found.push({
      attempt,
      kind: attempt.link ? 'link' : kind,
      run: done + state.runs,
      shrinks: state.shrinks,
    });
  }
}

/** Sends one request of the fuzz; undefined when nothing new failed, 'stop' when refused. */
async function send(
  ctx: Ctx,
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

async function sendValid(
  ctx: Ctx,
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
          problem: `link ${link.name} -> ${target.id}: ${failed.map((f) => `${f.check}: expected ${f.expected}, got ${f.actual}`).join('; ')}`,
        },
      };
  }
  return undefined;
}

async function sendInvalid(
  ctx: Ctx,
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

/** The findings join the operation's probes (the checks report them); stats and warnings too. */
function record(ctx: Ctx): void {
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
      request: attempt.spec,
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
              request: attempt.link.request,
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
