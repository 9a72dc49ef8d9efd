/**
 * Property-based fuzzing of one operation (`--fuzz N`): N generated valid requests, then N invalid
 * ones, each sent through the run's transport (pacing, budget) and judged by the existing checks;
 * a successful valid request's links are followed too. fast-check drives it (`fc.check` with the
 * operation's seed): the first failure is shrunk to a minimal request, then the remaining runs
 * look for a failure of another kind (at most MAX_FINDINGS per kind). Shrinking spends at most
 * MAX_SHRINK_REQUESTS requests per failure. The failing requests join the operation's probes, so
 * the checks report them like any other, with the seed and how to replay them. This module drives
 * the phases; sending and judging one request is send.ts, the findings' recording record.ts.
 */
import fc from 'fast-check';
import { allParameters, type Operation, type ServiceModel } from 'dataapi/model';
import { hashText } from 'dataapi/runtime/sampler';
import type { Transport } from '../http.ts';
import type { ProbeSet } from '../probe.ts';
import { validRequests, type RequestSpec } from '../requests.ts';
import { validArbitrary, schemaErrors, unsendable, unusable } from './generate.ts';
import { TAKEN_ELSEWHERE, takenElsewhere } from '../path-values.ts';
import {
  MAX_FINDINGS,
  MAX_SHRINK_REQUESTS,
  MAX_SIMPLIFY_REQUESTS,
  type Attempt,
  type FuzzContext,
} from './context.ts';
import { signature } from './judge.ts';
import { invalidArbitrary } from './mutations.ts';
import { recordFindings } from './record.ts';
import { sendInvalid, sendValid } from './send.ts';
import { FuzzTally } from './tally.ts';
import { simplify } from './simplify.ts';
import type { FuzzConfig, FuzzStats } from './types.ts';

export { MAX_FINDINGS, MAX_SHRINK_REQUESTS, MAX_SIMPLIFY_REQUESTS } from './context.ts';

/** An operation's own seed: the same for a given run seed whatever else the run selects. */
export function operationSeed(seed: number, operation: string): number {
  return hashText(`${seed}\u0000${operation}`) | 0;
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
  const ctx: FuzzContext = {
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
  recordFindings(ctx);
}

/** The failure after simplify.ts's pass (its requests counted as shrinking). */
async function simpler<G>(ctx: FuzzContext, p: Phase<G>, last: Attempt, g: G): Promise<Attempt> {
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
  ctx: FuzzContext,
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
