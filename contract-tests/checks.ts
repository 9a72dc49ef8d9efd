/**
 * The checks: each judges the probes of one operation and variant and returns a CheckResult.
 * A check fails on the first violated expectation of any probe it covers (and lists the rest),
 * is skipped when it does not apply or the budget refused its requests, and passes otherwise.
 */
import type { Operation, Response, ServiceModel } from 'dataapi/model';
import {
  codeGroupOf,
  describeErrors,
  excerpt,
  readEnvelope,
  validatorFor,
} from 'dataapi/runtime/shared';
import type { ContractConfig } from './config.ts';
import { ok, type Probe, type ProbeSet } from './probes.ts';
import type { CheckName, CheckResult } from './results.ts';

interface Violation {
  probe: Probe;
  expected: string;
  actual: string;
  errors?: string[];
  excerpt?: string;
}

export interface CheckContext {
  model: ServiceModel;
  op: Operation;
  set: ProbeSet;
  config: ContractConfig;
}

type Judge = (ctx: CheckContext) => { covered: Probe[]; violations: Violation[]; skip?: string };

/** The declared response for a status: exact, then `4XX`, then `default`. */
export function declaredResponse(op: Operation, status: number): Response | undefined {
  return (
    op.responses.find((r) => r.status === String(status)) ??
    op.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ??
    op.responses.find((r) => r.status === 'default')
  );
}

const own = (ctx: CheckContext) =>
  ctx.set.probes.filter((p) => p.op === ctx.op && p.role !== 'unknown-path');
const answered = (p: Probe) => p.exchange.record.status !== undefined;
const statusOf = (p: Probe) => p.exchange.record.status!;
const mediaOf = (v: string | undefined) => (v ?? '').split(';')[0]!.trim().toLowerCase();
const actualOf = (p: Probe) => {
  const r = p.exchange.record;
  if (r.status === undefined) return r.error ?? 'no response';
  return `HTTP ${r.status}${r.businessCode !== undefined ? `, business code ${r.businessCode}` : ''}`;
};
const isValid = (p: Probe) => p.role === 'valid' || p.role === 'paging';

const JUDGES: Record<CheckName, Judge> = {
  status(ctx) {
    const covered = own(ctx);
    const violations: Violation[] = [];
    const declared = ctx.op.responses.map((r) => r.status).join(', ');
    const success = ctx.op.success?.status ?? '2XX';
    for (const p of covered.filter(answered)) {
      const s = statusOf(p);
      if (!declaredResponse(ctx.op, s))
        violations.push({ probe: p, expected: `one of ${declared}`, actual: actualOf(p) });
      else if (isValid(p) && !ok(p) && !(p.uncertain && s === 404))
        violations.push({
          probe: p,
          expected: `${success} on a valid request`,
          actual: p.exchange.rateLimited
            ? `HTTP 429 after ${p.exchange.record.retries} retries (waited ${Math.round(p.exchange.record.waitedMs)} ms)`
            : actualOf(p),
        });
    }
    for (const p of covered.filter((p) => isValid(p) && !answered(p) && !p.exchange.budgetRefused))
      violations.push({ probe: p, expected: `${success} on a valid request`, actual: actualOf(p) });
    return { covered, violations };
  },

  'content-type'(ctx) {
    const covered = own(ctx).filter(answered);
    const violations: Violation[] = [];
    for (const p of covered) {
      const r = declaredResponse(ctx.op, statusOf(p));
      if (!r) continue;
      const got = mediaOf(p.exchange.record.contentType);
      const body = p.exchange.text ?? '';
      if (r.mediaType) {
        if (got !== mediaOf(r.mediaType))
          violations.push({
            probe: p,
            expected: r.mediaType,
            actual: got || '(no content-type)',
            excerpt: excerpt(body),
          });
        else if (r.kind === 'json' && !p.exchange.isJson)
          violations.push({
            probe: p,
            expected: `a JSON body (${r.mediaType})`,
            actual: body ? 'a body that is not JSON' : 'an empty body',
            excerpt: excerpt(body),
          });
      } else if (r.kind === 'empty' && body.length > 0)
        violations.push({
          probe: p,
          expected: 'no body',
          actual: got || 'a body',
          excerpt: excerpt(body),
        });
    }
    return { covered, violations };
  },

  envelope(ctx) {
    const env = ctx.op.envelope;
    if (!env) return { covered: [], violations: [], skip: 'plain JSON operation (no envelope)' };
    const covered = own(ctx).filter((p) => answered(p) && p.exchange.isJson);
    const violations: Violation[] = [];
    for (const p of covered) {
      const reading = readEnvelope(ctx.op, p.exchange.json);
      const x = excerpt(p.exchange.json);
      const expected = `${env.spelling} envelope: ${env.statusKey} and ${env.payloadKey}`;
      if (reading.foreignKeys.length > 0)
        violations.push({
          probe: p,
          expected,
          actual: `keys of the other spelling: ${reading.foreignKeys.join(', ')}`,
          excerpt: x,
        });
      else if (!reading.status)
        violations.push({ probe: p, expected, actual: `no ${env.statusKey} object`, excerpt: x });
      else if (ok(p) && !reading.wellFormed)
        violations.push({ probe: p, expected, actual: `no ${env.payloadKey}`, excerpt: x });
    }
    return { covered, violations };
  },

  'business-code'(ctx) {
    const group = codeGroupOf(ctx.model, ctx.op);
    if (!group || !ctx.op.envelope)
      return { covered: [], violations: [], skip: 'the operation has no business code group' };
    const covered = own(ctx).filter((p) => answered(p) && p.exchange.isJson);
    const violations: Violation[] = [];
    const codes = group.codes.map((c) => c.code);
    for (const p of covered) {
      const code = p.exchange.record.businessCode;
      const s = statusOf(p);
      const x = excerpt(p.exchange.json);
      if (ok(p) && isValid(p) && !p.uncertain) {
        if (code !== group.successCode)
          violations.push({
            probe: p,
            expected: `success code ${group.successCode} (group ${group.name})`,
            actual: code === undefined ? 'no business code' : `code ${code}`,
            excerpt: x,
          });
      } else if (!ok(p) && group.byHttpStatus[String(s)] !== undefined) {
        const want = group.byHttpStatus[String(s)]!;
        if (code !== want)
          violations.push({
            probe: p,
            expected: `code ${want} (group ${group.name}) with HTTP ${s}`,
            actual: code === undefined ? 'no business code' : `code ${code}`,
            excerpt: x,
          });
      } else if (ok(p) && (code === undefined || !codes.includes(code)))
        violations.push({
          probe: p,
          expected: `a code of group ${group.name} (${codes.join(', ')})`,
          actual: code === undefined ? 'no business code' : `code ${code}`,
          excerpt: x,
        });
    }
    return { covered, violations };
  },

  schema(ctx) {
    const covered = own(ctx).filter((p) => answered(p) && p.exchange.isJson);
    const violations: Violation[] = [];
    const v = validatorFor(ctx.model);
    for (const p of covered) {
      const r = declaredResponse(ctx.op, statusOf(p));
      if (!r?.schema) continue;
      const validate = v.compile(r.schema);
      if (!validate(p.exchange.json)) {
        const errors = describeErrors(validate.errors, p.exchange.json);
        violations.push({
          probe: p,
          expected: `body valid against the ${r.status} schema`,
          actual: errors[0] ?? 'invalid',
          errors,
          excerpt: errors[0]?.replace(/^.*\(got (.*)\)$/, '$1') ?? excerpt(p.exchange.json),
        });
      }
    }
    return { covered, violations };
  },

  paging(ctx) {
    const covered = ctx.set.probes.filter(
      (p) => p.op === ctx.op && p.pageSize !== undefined && ok(p),
    );
    if (!ctx.set.probes.some((p) => p.pageSize !== undefined))
      return { covered: [], violations: [], skip: 'the operation takes no page size' };
    const violations: Violation[] = [];
    for (const p of covered) {
      const payload = readEnvelope(ctx.op, p.exchange.json).payload;
      const items = Array.isArray(payload)
        ? payload
        : typeof payload === 'object' && payload !== null
          ? Object.values(payload).filter(Array.isArray).length === 1
            ? (Object.values(payload).find(Array.isArray) as unknown[])
            : undefined
          : undefined;
      if (items && items.length > p.pageSize!)
        violations.push({
          probe: p,
          expected: `at most ${p.pageSize} items`,
          actual: `${items.length} items`,
          excerpt: excerpt(items),
        });
    }
    return { covered, violations };
  },

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
    const violations: Violation[] = [];
    for (const p of covered.filter(answered)) {
      const code = p.exchange.record.businessCode;
      if (statusOf(p) !== 401 || (want !== undefined && ctx.op.envelope && code !== want))
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
    for (const p of covered.filter(answered)) {
      const s = statusOf(p);
      const c = p.negative!;
      const refused =
        s === 400 ||
        (c.target.startsWith('path.') && s === 404) ||
        (c.kind === 'body' && s === 415) ||
        (ok(p) && paramCode !== undefined && p.exchange.record.businessCode === paramCode);
      if (!refused)
        violations.push({
          probe: p,
          expected: `refused: HTTP 400${paramCode !== undefined ? ` or business code ${paramCode}` : ''} (${c.label})`,
          actual: actualOf(p),
          excerpt: excerpt(p.exchange.json ?? p.exchange.text),
        });
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
    for (const p of covered.filter(answered)) {
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
      } else if (p.role === 'unknown-path' && s !== 404)
        violations.push({ probe: p, expected: 'HTTP 404 on an unknown path', actual: actualOf(p) });
      else if (p.role === 'wrong-content-type' && s !== 415)
        violations.push({
          probe: p,
          expected: 'HTTP 415 for a body of the wrong content type',
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
    const last = covered[covered.length - 1]!;
    return {
      covered,
      violations: l.problems.length
        ? [{ probe: last, expected: l.note, actual: l.problems[0]!, errors: l.problems }]
        : [],
    };
  },

  headers(ctx) {
    const covered = own(ctx).filter(answered);
    const violations: Violation[] = [];
    const v = validatorFor(ctx.model);
    const checkOne = (p: Probe, status: number, headers: Record<string, string>) => {
      for (const h of declaredResponse(ctx.op, status)?.headers ?? []) {
        const raw = headers[h.name.toLowerCase()];
        if (raw === undefined) {
          if (h.required)
            violations.push({
              probe: p,
              expected: `header ${h.name} (required on ${status})`,
              actual: 'absent',
            });
          continue;
        }
        const value = typed(raw, h.schema as Record<string, unknown>);
        const validate = v.compile(h.schema);
        if (!validate(value))
          violations.push({
            probe: p,
            expected: `header ${h.name} valid against its schema`,
            actual: `${h.name}: ${raw}`,
            errors: describeErrors(validate.errors, value),
            excerpt: raw,
          });
      }
    };
    for (const p of covered) {
      checkOne(p, statusOf(p), p.exchange.headers);
      for (const h of p.exchange.retriedHeaders) checkOne(p, 429, h);
    }
    return { covered, violations };
  },

  'response-time'(ctx) {
    const max = ctx.config.maxResponseTimeMs;
    if (max === undefined)
      return { covered: [], violations: [], skip: 'no --max-response-time given' };
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
    const covered = ctx.set.probes;
    const violations: Violation[] = [];
    for (const p of covered) {
      if (p.exchange.budgetRefused) continue;
      if (!answered(p))
        violations.push({
          probe: p,
          expected: `a response within ${ctx.config.timeoutMs} ms`,
          actual: actualOf(p),
        });
      else if (statusOf(p) >= 500)
        violations.push({
          probe: p,
          expected: 'no 5xx',
          actual: actualOf(p),
          excerpt: excerpt(p.exchange.json ?? p.exchange.text),
        });
    }
    return { covered, violations };
  },
};

/** Header text to the schema's type before validating (headers are strings on the wire). */
function typed(raw: string, schema: Record<string, unknown>): unknown {
  const t = schema['type'];
  const types = Array.isArray(t) ? t : [t];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(raw.trim()))
    return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

export function runCheck(check: CheckName, ctx: CheckContext): CheckResult {
  const { covered, violations, skip } = JUDGES[check](ctx);
  const exchanges = covered.map((p) => p.exchange.record);
  const base = {
    operation: ctx.op.id,
    variant: ctx.set.variant,
    check,
    durationMs: Math.round(exchanges.reduce((s, e) => s + e.durationMs, 0)),
    waitedMs: Math.round(exchanges.reduce((s, e) => s + e.waitedMs, 0)),
    exchanges,
  };
  if (violations.length > 0) {
    const first = violations[0]!;
    const req = first.probe.exchange.record.request;
    return {
      ...base,
      status: 'failed',
      message: `${req.purpose}: expected ${first.expected}, got ${first.actual}`,
      request: { method: req.method, url: req.url },
      expected: first.expected,
      actual: first.actual,
      errors: violations
        .flatMap((v) =>
          v.errors && v.errors.length > 0
            ? v.errors.map((e) => `${v.probe.exchange.record.request.purpose}: ${e}`)
            : [
                `${v.probe.exchange.record.request.purpose}: expected ${v.expected}, got ${v.actual}`,
              ],
        )
        .slice(0, 20),
      ...(first.excerpt !== undefined
        ? { excerpt: first.excerpt }
        : first.probe.exchange.record.excerpt !== undefined
          ? { excerpt: first.probe.exchange.record.excerpt }
          : {}),
    };
  }
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
    message: `${covered.length} request(s) conform`,
    request: { method: main.method, url: main.url },
    errors: [],
  };
}
