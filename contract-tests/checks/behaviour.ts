/** Checks of how the target behaves: keys, invalid input, methods and paths, lifecycles, time, 5xx. */
import type { Operation } from 'dataapi/model';
import { codeGroupOf, excerpt } from 'dataapi/runtime/shared';
import {
  actualOf,
  answered,
  declaredResponse,
  descriptionWarning,
  isValid,
  ok,
  onMissingResource,
  statusOf,
  type Judge,
  type Violation,
} from './judge.ts';
import { staticSkip } from './static-skip.ts';
import { sharedRouteNote, siblingsOf } from '../shared-route.ts';

/** The operation declares no 2xx and does declare this status: answering it is its contract. */
const onlyAnswers = (op: Operation, status: number) =>
  op.success === undefined && declaredResponse(op, status) !== undefined;

/**
 * A server may check credentials before it routes (most gateways do): a 401 or 403 to a path
 * nothing serves refuses it as surely as a 404, and the description says nothing of either.
 */
const REFUSED_BEFORE_ROUTING = new Set([401, 403]);
/**
 * A body of a media type the operation does not take: 415 is HTTP's word for it (RFC 9110
 * §15.5.16), but a 400 or 422 refuses it too, and the description promises no particular one.
 */
const REFUSED_MEDIA = new Set([415, 400, 422]);

export const BEHAVIOUR_JUDGES = {
  auth(ctx) {
    if (ctx.set.variant === 'preview') {
      const covered = ctx.set.probes.filter((p) => p.role === 'valid' && answered(p));
      const violations = covered
        .filter((p) => !ok(p))
        .map((p) => ({
          probe: p,
          expected: 'a success answer without a key (preview)',
          actual: actualOf(p),
          excerpt: excerpt(p.exchange.json ?? p.exchange.text),
        }));
      return { covered, violations };
    }
    const covered = ctx.set.probes.filter((p) => p.role === 'no-key' || p.role === 'wrong-key');
    if (covered.length === 0)
      return { covered, violations: [], skip: 'the operation takes no key' };
    const want = codeGroupOf(ctx.model, ctx.op)?.byHttpStatus['401'];
    // 401 is the refusal of a missing or wrong credential; a description that declares 403 and
    // no 401 for it is taken at its word.
    const statuses = ctx.op.responses.map((r) => r.status);
    const refusals = !statuses.includes('401') && statuses.includes('403') ? [401, 403] : [401];
    const violations: Violation[] = [];
    for (const p of covered.filter((p) => answered(p) && !onMissingResource(p))) {
      const code = p.exchange.record.businessCode;
      if (
        !refusals.includes(statusOf(p)) ||
        (want !== undefined && ctx.op.envelope && code !== want)
      )
        violations.push({
          probe: p,
          expected: `HTTP 401${want !== undefined ? `, business code ${want}` : ''}`,
          actual: actualOf(p),
          excerpt: excerpt(p.exchange.json ?? p.exchange.text),
        });
    }
    return { covered, violations };
  },

  negative(ctx) {
    const covered = ctx.set.probes.filter((p) => p.role === 'negative');
    if (covered.length === 0)
      return { covered, violations: [], skip: 'no negative case derives from the schemas' };
    const group = codeGroupOf(ctx.model, ctx.op);
    const paramCode = group?.codes.find((c) => c.outcome === 'invalid_parameters')?.code;
    const violations: Violation[] = [];
    const siblings = siblingsOf(ctx.model, ctx.op);
    for (const p of covered.filter((p) => answered(p) && !onMissingResource(p))) {
      const s = statusOf(p);
      const c = p.negative!;
      // Refusals: 400 and 422 for invalid input, 413/414/431 for a value too large to take, and
      // 409: a conflict (the resource exists) refuses the request before its values are read.
      const refused =
        [400, 409, 413, 414, 422, 431].includes(s) ||
        (c.target.startsWith('path.') && s === 404) ||
        (c.kind === 'body' && s === 415) ||
        (ok(p) && paramCode !== undefined && p.exchange.record.businessCode === paramCode);
      if (refused) continue;
      const v = {
        probe: p,
        expected: `refused: HTTP 400${paramCode !== undefined ? ` or business code ${paramCode}` : ''} (${c.label})`,
        actual: actualOf(p),
        excerpt: excerpt(p.exchange.json ?? p.exchange.text),
      };
      // A value outside a `format` taken as valid: the description names the format but not
      // whether it is asserted (an annotation unless it is), so the target is within its rights.
      if (c.kind === 'format' && ok(p)) {
        violations.push(
          descriptionWarning(
            v,
            'format-not-asserted',
            ctx.op.pointer,
            `${c.target} accepted a value outside its format (${c.label}): the description does not say the format is asserted`,
          ),
        );
        continue;
      }
      // Let through on a shared route: a sibling may have taken the request as its own.
      violations.push(
        siblings.length > 0 && ok(p)
          ? descriptionWarning(
              v,
              'operation-shared-route',
              ctx.op.pointer,
              sharedRouteNote(siblings, ctx.op),
            )
          : v,
      );
    }
    return { covered, violations };
  },

  'method-path'(ctx) {
    const covered = ctx.set.probes.filter((p) =>
      ['wrong-method', 'unknown-path', 'wrong-content-type'].includes(p.role),
    );
    const violations: Violation[] = [];
    const declared = ctx.model.operations
      .filter((o) => o.path === ctx.op.path)
      .map((o) => o.method.toUpperCase());
    for (const p of covered.filter((p) => answered(p) && !onMissingResource(p))) {
      const s = statusOf(p);
      if (p.role === 'wrong-method') {
        const allow = (p.exchange.headers['allow'] ?? '')
          .split(',')
          .map((m) => m.trim().toUpperCase())
          .filter(Boolean);
        const missing = declared.filter((m) => !allow.includes(m));
        if (s !== 405) violations.push({ probe: p, expected: 'HTTP 405', actual: actualOf(p) });
        else if (!p.exchange.headers['allow'])
          violations.push({
            probe: p,
            expected: `an Allow header listing ${declared.join(', ')}`,
            actual: 'no Allow header',
          });
        else if (missing.length > 0 || allow.includes(p.method!.toUpperCase()))
          violations.push({
            probe: p,
            expected: `Allow: ${declared.join(', ')}`,
            actual: `Allow: ${p.exchange.headers['allow']}`,
          });
      } else if (p.role === 'unknown-path' && s !== 404 && !REFUSED_BEFORE_ROUTING.has(s)) {
        const v = { probe: p, expected: 'HTTP 404 on an unknown path', actual: actualOf(p) };
        // Under a path whose last segment is a parameter, the server may read the rest of the URL
        // into it (a file path, a key with slashes): answered, not failed, the description is
        // silent on that, not the target wrong.
        violations.push(
          /\}$/.test(ctx.op.path) && s < 500
            ? descriptionWarning(
                v,
                'path-parameter-greedy',
                ctx.op.pointer,
                `${ctx.op.path} answered HTTP ${s} to a path one segment longer (its last parameter takes the rest of the URL)`,
              )
            : v,
        );
      } else if (p.role === 'wrong-content-type' && !REFUSED_MEDIA.has(s))
        violations.push({
          probe: p,
          expected: 'HTTP 415 (or 400, 422) for a body of the wrong content type',
          actual: actualOf(p),
        });
    }
    return { covered, violations };
  },

  lifecycle(ctx) {
    const l = ctx.set.lifecycle;
    if (ctx.op.async?.role === 'status')
      return { covered: [], violations: [], skip: `driven from ${ctx.op.async.partner}` };
    if (!l?.ran) return { covered: [], violations: [], skip: l?.note ?? 'not applicable' };
    const covered = ctx.set.probes.filter((p) => p.role === 'lifecycle' || p.role === 'valid');
    // The failing request: a fuzzed one when fuzzing found the problem, else the last one sent.
    const probe = l.probe ?? covered[covered.length - 1]!;
    return {
      covered,
      violations: l.problems.length
        ? [{ probe, expected: l.note, actual: l.problems[0]!, errors: l.problems }]
        : [],
    };
  },

  'response-time'(ctx) {
    const max = ctx.config.maxResponseTimeMs;
    const skip = staticSkip('response-time', ctx.model, ctx.op, ctx.config);
    if (max === undefined || skip)
      return { covered: [], violations: [], ...(skip ? { skip } : {}) };
    const covered = ctx.set.probes.filter(answered);
    const violations = covered
      .filter((p) => p.exchange.record.durationMs / (p.exchange.record.retries + 1) > max)
      .map((p) => ({
        probe: p,
        expected: `a response within ${max} ms`,
        actual: `${Math.round(p.exchange.record.durationMs)} ms`,
      }));
    return { covered, violations };
  },

  'server-errors'(ctx) {
    // What the suite sent to another operation for test data (its list, its create) is judged
    // by that operation's own checks, not blamed on this one.
    const covered = ctx.set.probes.filter((p) => !p.testData);
    const violations: Violation[] = [];
    for (const p of covered) {
      if (p.exchange.budgetRefused) continue;
      if (!answered(p))
        violations.push({
          probe: p,
          expected: `a response within ${ctx.config.timeoutMs} ms`,
          actual: actualOf(p),
        });
      else if (statusOf(p) >= 500 && !(isValid(p) && onlyAnswers(ctx.op, statusOf(p))))
        violations.push({
          probe: p,
          expected: 'no 5xx',
          actual: actualOf(p),
          excerpt: excerpt(p.exchange.json ?? p.exchange.text),
        });
    }
    return { covered, violations };
  },
} satisfies Record<string, Judge>;
