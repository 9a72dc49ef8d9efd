/** Checks of what a response looks like: status, media type, envelope, codes, schema, paging, headers. */
import {
  codeGroupOf,
  describeErrors,
  directionalErrors,
  excerpt,
  isXmlMedia,
  readEnvelope,
  validatorFor,
} from 'dataapi/runtime/shared';
import {
  deref,
  mediaMatches,
  pageListKey,
  propertiesOf,
  type JsonSchema,
  type Operation,
  type ServiceModel,
} from 'dataapi/model';
import { pointerOf } from '../warnings.ts';
import {
  actualOf,
  answered,
  declaredResponse,
  descriptionWarning,
  isProbeOfRefusal,
  isValid,
  judgedResponse,
  mediaOf,
  ok,
  own,
  statusOf,
  typed,
  type CheckContext,
  type Judge,
  type Violation,
} from './judge.ts';
import type { Probe } from '../probes.ts';
import { blame } from './blame.ts';
import { staticSkip } from './static-skip.ts';
import { xmlFault, xmlValue } from 'dataapi/runtime/xml';

/** The `minItems` of the paged list (the payload, or its property `key`), 0 when none. */
function minItemsOf(model: ServiceModel, schema: JsonSchema | undefined, key: string): number {
  const s = deref(model, schema);
  const list = key === '' ? s : deref(model, propertiesOf(model, s).get(key));
  return typeof list === 'object' && typeof list['minItems'] === 'number' ? list['minItems'] : 0;
}

/**
 * Why a valid request's refusal is no verdict, or undefined when it is one: a 404 (or another
 * declared refusal) on an identifier the suite made up, or a declared 4xx to a body the suite
 * generated from the schema (the server may hold rules a schema cannot say: a start before an
 * end). The description's own examples are held to their success.
 */
function missingData(op: Operation, p: Probe, s: number): string | undefined {
  const declared = declaredResponse(op, s) !== undefined;
  if ((p.uncertain || p.invented) && (s === 404 || (declared && s >= 400))) {
    const values = Object.entries(p.spec?.path ?? {})
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(', ');
    return `${p.exchange.record.request.purpose} answered HTTP ${s} for ${values || 'its path'}, a value the suite made up (an example or a sample): no operation of the description lists or creates the resource first`;
  }
  if (declared && s >= 400 && s < 500 && s !== 401 && s !== 403 && p.spec?.sampled)
    return `${p.exchange.record.request.purpose} was refused with the declared HTTP ${s}: values generated from the schemas, which the server may hold to rules a schema does not state (give the parameters and the request body examples)`;
  return undefined;
}

const REFERENCE_HEADERS = new Set(['location', 'content-location']);

function resolvedReference(raw: string, base: string): string {
  try {
    return new URL(raw, base).href;
  } catch {
    return raw;
  }
}

/** Statuses HTTP gives no body. */
const BODILESS = new Set([204, 205, 304]);

/** A status a client receives as a final answer: not 1xx, not 407 (fetch makes it an error). */
export const receivable = (status: string) => !/^1/.test(status) && status !== '407';

/**
 * The status check of an operation that declares no response (OpenAPI 3.1 allows it), or
 * none a client can receive: a valid request must still succeed; the description's silence is
 * one warning.
 */
function silentStatus(ctx: CheckContext, covered: Probe[]): ReturnType<Judge> {
  const violations: Violation[] = covered
    .filter((p) => isValid(p) && !p.exchange.budgetRefused && !p.unsatisfied)
    .filter((p) => !(answered(p) && ok(p)))
    .map((p) => ({ probe: p, expected: '2XX on a valid request', actual: actualOf(p) }));
  if (covered[0])
    violations.push(
      descriptionWarning(
        { probe: covered[0], expected: 'declared responses', actual: 'none' },
        'no-responses',
        pointerOf(ctx.op.pointer, 'responses'),
        ctx.op.responses.length === 0
          ? 'the operation declares no responses: its statuses, media types and bodies are not checked'
          : `the operation declares only statuses no HTTP client receives as an answer (${ctx.op.responses.map((r) => r.status).join(', ')}: informational, or 407 which fetch turns into a network error): its statuses are not checked`,
      ),
    );
  return { covered, violations };
}

/** What the status check reads of an operation, made once per operation (the proxy judges often). */
interface StatusPlan {
  /** The declared statuses, as findings list them. */
  declared: string;
  success: string | undefined;
  /** No response a client can receive is declared. */
  silent: boolean;
}

const statusPlans = new WeakMap<Operation, StatusPlan>();

function statusPlanOf(op: Operation): StatusPlan {
  let plan = statusPlans.get(op);
  if (!plan)
    statusPlans.set(
      op,
      (plan = {
        declared: op.responses.map((r) => r.status).join(', '),
        // No 2xx declared (an endpoint that always refuses): any declared status answers a valid
        // request; no response declared at all (3.1 allows it): nothing to hold the status to.
        success: op.success?.status ?? (op.responses.length === 0 ? '2XX' : undefined),
        silent: !op.responses.some((r) => receivable(r.status)),
      }),
    );
  return plan;
}

export const RESPONSE_JUDGES = {
  status(ctx) {
    const covered = own(ctx);
    const violations: Violation[] = [];
    const { declared, success, silent } = statusPlanOf(ctx.op);
    if (silent) return silentStatus(ctx, covered);
    // A refusal the description does not document is the description's silence (a 401 where no
    // 401 is declared): one warning per status, naming the probes that got it. A valid request
    // answered with an undeclared status, or a probe let through or broken, is the target's fault.
    const undeclared = new Map<number, Probe[]>();
    // A valid request on a resource the suite made up, answered 404: the target lacks it.
    const missing: string[] = [];
    for (const p of covered.filter(answered)) {
      const s = statusOf(p);
      // Built from a schema no value satisfies: its refusal is the description's doing.
      const u = isValid(p) && s >= 400 && s < 500 ? p.unsatisfied : undefined;
      if (u) {
        violations.push(
          descriptionWarning(
            {
              probe: p,
              expected: `${success ?? 'a declared status'} on a valid request`,
              actual: actualOf(p),
            },
            'unsatisfiable-schema',
            u.pointer,
            `the schema admits no value the sampler can find (${u.why}): the request built from it was refused with HTTP ${s}`,
          ),
        );
        continue;
      }
      // A valid request the target refused for want of test data: not tested, not failed.
      const lacking = isValid(p) && !ok(p) ? missingData(ctx.op, p, s) : undefined;
      if (lacking !== undefined) {
        missing.push(lacking);
        continue;
      }
      if (!declaredResponse(ctx.op, s)) {
        // HTTP's own answer to the suite's own provocation (405 to a wrong method, 415 to a wrong
        // content type) is no gap in the description: few declare them, and method-path judges
        // them. Warning about them was most of all description warnings on real descriptions.
        if (provoked(p, s)) continue;
        if (isProbeOfRefusal(p) && s >= 400 && s < 500)
          undeclared.set(s, [...(undeclared.get(s) ?? []), p]);
        else violations.push({ probe: p, expected: `one of ${declared}`, actual: actualOf(p) });
      } else if (isValid(p) && !ok(p) && success !== undefined)
        violations.push({
          probe: p,
          expected: `${success} on a valid request`,
          actual: p.exchange.rateLimited
            ? `HTTP 429 after ${p.exchange.record.retries} retries (waited ${Math.round(p.exchange.record.waitedMs)} ms)`
            : actualOf(p),
        });
    }
    for (const [s, probes] of undeclared)
      violations.push(
        descriptionWarning(
          { probe: probes[0]!, expected: `one of ${declared}`, actual: `HTTP ${s}` },
          'undeclared-status',
          pointerOf(ctx.op.pointer, 'responses'),
          `HTTP ${s} is not declared (declared: ${declared}); it answered: ${[...new Set(probes.map((p) => p.exchange.record.request.purpose))].join('; ')}`,
        ),
      );
    for (const p of covered.filter((p) => isValid(p) && !answered(p) && !p.exchange.budgetRefused))
      violations.push({
        probe: p,
        expected: `${success ?? 'a declared status'} on a valid request`,
        actual: actualOf(p),
      });
    const first = missing[0];
    // No optional part spread in: this runs on every exchange the proxy judges.
    const judgement: ReturnType<Judge> = { covered, violations };
    if (first) judgement.notTested = { code: 'missing-test-data', reason: first };
    return judgement;
  },

  'content-type'(ctx) {
    const covered = own(ctx).filter(answered);
    const violations: Violation[] = [];
    for (const p of covered) {
      const r = judgedResponse(ctx.op, p);
      if (!r) continue;
      const got = mediaOf(p.exchange.record.contentType);
      const body = p.exchange.text ?? '';
      // An answer to HEAD never has a body (RFC 9110 §9.3.2): its headers are judged, not its body.
      const head = p.exchange.record.request.method.toUpperCase() === 'HEAD';
      if (r.mediaType) {
        // A range (`image/*`, OpenAPI's content keys may be one) takes any type in it.
        if (!got || !mediaMatches(r.mediaType, got))
          violations.push({
            probe: p,
            expected: r.mediaType,
            actual: got || '(no content-type)',
            excerpt: excerpt(body),
          });
        else if (head) continue;
        else if (isXmlMedia(r.mediaType) && xmlFault(body) !== undefined)
          violations.push({
            probe: p,
            expected: `a well-formed XML body (${r.mediaType})`,
            actual: xmlFault(body)!,
            excerpt: excerpt(body),
          });
        else if (r.kind === 'json' && !p.exchange.isJson)
          violations.push({
            probe: p,
            expected: `a JSON body (${r.mediaType})`,
            actual: body ? 'a body that is not JSON' : 'an empty body',
            excerpt: excerpt(body),
          });
      } else if (r.kind === 'empty' && body.length > 0) {
        const v = {
          probe: p,
          expected: 'no body',
          actual: got || 'a body',
          excerpt: excerpt(body),
        };
        // HTTP forbids a body on 204, 205 and 304 (RFC 9110 §15.3.5, §15.3.6, §15.4.5): the
        // target's fault. Elsewhere a response declared without content says nothing of its
        // body: the description is silent, not the target wrong.
        violations.push(
          BODILESS.has(statusOf(p))
            ? v
            : descriptionWarning(
                v,
                'undeclared-content',
                pointerOf(ctx.op.pointer, 'responses', r.status),
                `HTTP ${statusOf(p)} came with a body (${got || 'no content-type'}) where the response declares no content`,
              ),
        );
      }
    }
    return { covered, violations };
  },

  envelope(ctx) {
    const env = ctx.op.envelope;
    const skip = staticSkip('envelope', ctx.model, ctx.op, ctx.config);
    if (!env || skip) return { covered: [], violations: [], ...(skip ? { skip } : {}) };
    const covered = own(ctx).filter((p) => answered(p) && p.exchange.isJson);
    const violations: Violation[] = [];
    for (const p of covered) {
      const reading = readEnvelope(ctx.op, p.exchange.json);
      // Written only for a violation: most answers have none.
      const x = () => excerpt(p.exchange.json);
      const expected = `${env.spelling} envelope: ${env.statusKey} and ${env.payloadKey}`;
      if (reading.foreignKeys.length > 0)
        violations.push({
          probe: p,
          expected,
          actual: `keys of the other spelling: ${reading.foreignKeys.join(', ')}`,
          excerpt: x(),
        });
      else if (!reading.status)
        violations.push({ probe: p, expected, actual: `no ${env.statusKey} object`, excerpt: x() });
      else if (ok(p) && !reading.wellFormed)
        violations.push({ probe: p, expected, actual: `no ${env.payloadKey}`, excerpt: x() });
    }
    return { covered, violations };
  },

  'business-code'(ctx) {
    const group = codeGroupOf(ctx.model, ctx.op);
    const skip = staticSkip('business-code', ctx.model, ctx.op, ctx.config);
    if (!group || !ctx.op.envelope || skip)
      return { covered: [], violations: [], ...(skip ? { skip } : {}) };
    const covered = own(ctx).filter((p) => answered(p) && p.exchange.isJson);
    const violations: Violation[] = [];
    const codes = group.codes.map((c) => c.code);
    for (const p of covered) {
      const code = p.exchange.record.businessCode;
      const s = statusOf(p);
      // Written only for a violation: most answers have none.
      const x = () => excerpt(p.exchange.json);
      if (ok(p) && isValid(p) && !p.uncertain) {
        if (code !== group.successCode)
          violations.push({
            probe: p,
            expected: `success code ${group.successCode} (group ${group.name})`,
            actual: code === undefined ? 'no business code' : `code ${code}`,
            excerpt: x(),
          });
      } else if (!ok(p) && group.byHttpStatus[String(s)] !== undefined) {
        const want = group.byHttpStatus[String(s)]!;
        if (code !== want)
          violations.push({
            probe: p,
            expected: `code ${want} (group ${group.name}) with HTTP ${s}`,
            actual: code === undefined ? 'no business code' : `code ${code}`,
            excerpt: x(),
          });
      } else if (ok(p) && (code === undefined || !codes.includes(code)))
        violations.push({
          probe: p,
          expected: `a code of group ${group.name} (${codes.join(', ')})`,
          actual: code === undefined ? 'no business code' : `code ${code}`,
          excerpt: x(),
        });
    }
    return { covered, violations };
  },

  schema(ctx) {
    // JSON answers, and XML ones where the schema's xml hints say how to read them back.
    const bodies = new Map<Probe, unknown>();
    const violations: Violation[] = [];
    for (const p of own(ctx).filter(answered)) {
      if (p.exchange.isJson) {
        bodies.set(p, p.exchange.json);
        continue;
      }
      const r = judgedResponse(ctx.op, p);
      const text = p.exchange.text ?? '';
      if (!r?.schema || !isXmlMedia(r.mediaType) || !isXmlMedia(p.exchange.record.contentType))
        continue;
      if (xmlFault(text) !== undefined) continue; // content-type reports it
      const read = xmlValue(ctx.model, r.schema, text);
      if (read === undefined) continue;
      if ('rootMismatch' in read) {
        violations.push({
          probe: p,
          expected: `body valid against the ${r.status} schema (as XML)`,
          actual: read.rootMismatch,
          excerpt: excerpt(text),
        });
        bodies.set(p, undefined);
      } else bodies.set(p, read.value);
    }
    const covered = [...bodies.keys()];
    const v = validatorFor(ctx.model);
    for (const [p, body] of bodies) {
      const r = judgedResponse(ctx.op, p);
      if (!r?.schema || (body === undefined && !p.exchange.isJson)) continue;
      const validate = v.compileFor(r.schema, 'response');
      // A writeOnly property in `required` binds requests only: an answer may leave it out.
      const left = validate(body) ? [] : directionalErrors(ctx.model, validate.errors, 'response');
      if (left.length > 0) {
        const errors = describeErrors(left, body);
        const v = {
          probe: p,
          expected: `body valid against the ${r.status} schema`,
          actual: errors[0] ?? 'invalid',
          errors,
          excerpt: errors[0]?.replace(/^.*\(got (.*)\)$/, '$1') ?? excerpt(body),
        };
        violations.push(blame(ctx, p, r, left, v));
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
      const key = pageListKey(payload);
      const items =
        key === undefined
          ? undefined
          : key === ''
            ? (payload as unknown[])
            : ((payload as Record<string, unknown[]>)[key] as unknown[]);
      if (!items || items.length <= p.pageSize!) continue;
      const v = {
        probe: p,
        expected: `at most ${p.pageSize} items`,
        actual: `${items.length} items`,
        excerpt: excerpt(items),
      };
      // The list's own schema wants more items than the page asked for: the description
      // contradicts itself (a page size on an answer that is not a page).
      const least = minItemsOf(ctx.model, ctx.op.payloadSchema ?? ctx.op.success?.schema, key!);
      violations.push(
        least > p.pageSize!
          ? descriptionWarning(
              v,
              'paging-contradiction',
              pointerOf(ctx.op.pointer, 'responses'),
              `${ctx.op.paging?.name}=${p.pageSize} asks for fewer items than the answer's ${key || 'list'} must hold (minItems ${least})`,
            )
          : v,
      );
    }
    return { covered, violations };
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
        // Location and Content-Location are URI-references, resolved against the request's
        // URL (RFC 9110 §10.2.2, §8.7): a relative one is judged as the URL it names.
        const resolved = REFERENCE_HEADERS.has(h.name.toLowerCase())
          ? resolvedReference(raw, p.exchange.record.request.url)
          : raw;
        const value = typed(resolved, h.schema as Record<string, unknown>);
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
} satisfies Record<string, Judge>;

/** A status the protocol gives the suite's own probe (405 to a wrong method, 415 to a wrong body type). */
function provoked(p: Probe, status: number): boolean {
  return (
    (status === 405 && p.role === 'wrong-method') ||
    (status === 415 && p.role === 'wrong-content-type')
  );
}
