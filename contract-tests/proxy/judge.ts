/**
 * Judges one observed exchange with the contract's own checks (checks/registry.ts), plus what only
 * traffic shows: the key sent the wrong way, a 429 without Retry-After, an undocumented path or
 * method, the deployment not answering. Every finding is one `Finding`; nothing here touches the
 * traffic itself.
 */
import {
  declaredResponse,
  severityOf,
  type DiagnosticCode,
  type SeveritySettings,
  type ServiceModel,
  type WarningCode,
} from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import { checkDefinition, type CheckName } from '../checks/registry.ts';
import { RETRY_DEFAULTS, type ContractConfig } from '../config.ts';
import type { ExchangeRecord, Variant } from '../exchange.ts';
import type { Probe } from '../probe.ts';
import { describeTransport, sentKeys } from './credentials.ts';
import { headerOf, truncated, type Observed } from './observed.ts';
import { probeOf } from './probe.ts';
import { routeOf } from './route.ts';
import { verdictsOf } from '../checks/verdict.ts';

export interface Finding {
  /** A failure is the deployment's (or the client's) fault; a warning the description's. */
  kind: 'failure' | 'warning';
  /** Absent for a request no operation documents. */
  operation?: string;
  variant?: Variant;
  /** A check of the registry, or `undocumented` (a catalogue code too). */
  check: CheckName | 'undocumented';
  method: string;
  /** Key redacted. */
  url: string;
  status?: number;
  expected: string;
  actual: string;
  errors?: string[];
  excerpt?: string;
  /** JSON pointer and code of a warning (the description's fault, or a check set to warning). */
  pointer?: string;
  code?: WarningCode | CheckName;
}

export interface Judgement {
  findings: Finding[];
  /** Absent for an undocumented request. */
  probe?: Probe;
  variant?: Variant;
  /** The checks that judged the exchange (a passing check counts as exercised). */
  judged: CheckName[];
}

/**
 * What a judgement leaves for the reports: plain data, so that it crosses from a judging thread
 * to the one that reports (the probe holds the model's operation).
 */
export interface JudgedExchange {
  findings: Finding[];
  judged: CheckName[];
  variant?: Variant;
  /** Absent for an undocumented request. */
  operation?: string;
  record?: ExchangeRecord;
}

export const judgedExchange = (j: Judgement): JudgedExchange => ({
  findings: j.findings,
  judged: j.judged,
  ...(j.variant ? { variant: j.variant } : {}),
  ...(j.probe ? { operation: j.probe.op.id, record: j.probe.exchange.record } : {}),
});

const BODY_CHECKS: CheckName[] = [
  'status',
  'content-type',
  'envelope',
  'business-code',
  'schema',
  'headers',
];
const HEAD_CHECKS: CheckName[] = ['status', 'headers'];

/** The judges need a config; none of the ones run on traffic reads more than this. */
const CONFIG: ContractConfig = {
  baseUrl: '',
  appkey: '',
  timeoutMs: 0,
  allowWrites: false,
  ...RETRY_DEFAULTS,
};

/**
 * The route a request took and what it got back: a route the description does not document,
 * refused with 404 (path) or 405 (method), is the right answer and no finding; answered otherwise,
 * the description is silent about it (a warning, code `undocumented`).
 */
const refusedAsUndocumented = (kind: string, status: number | undefined) =>
  status === 404 || (kind === 'undocumented-method' && status === 405);

export function judgeObserved(
  model: ServiceModel,
  o: Observed,
  redactor: Redactor,
  settings?: SeveritySettings,
): Judgement {
  const severity = (code: DiagnosticCode) => severityOf(code, settings);
  const kindOf = (code: CheckName | 'undocumented') =>
    severity(code) === 'failure' ? ('failure' as const) : ('warning' as const);
  const method = o.method.toUpperCase();
  const url = redactor.url(`${o.origin}${o.pathAndQuery}`);
  const path = new URL(o.pathAndQuery, 'http://x').pathname;
  // A browser's CORS preflight asks the server, not the API: no operation documents it.
  if (method === 'OPTIONS' && headerOf(o.requestHeaders, 'access-control-request-method'))
    return { findings: [], judged: [] };
  const route = routeOf(model, method, path);
  const base = { method, url, ...(o.status !== undefined ? { status: o.status } : {}) };
  if (route.kind !== 'operation') {
    const shown = `${method} ${redactor.url(path)}`;
    if (refusedAsUndocumented(route.kind, o.status) || severity('undocumented') === 'off')
      return { judged: [], findings: [] };
    return {
      judged: [],
      findings: [
        {
          kind: kindOf('undocumented'),
          check: 'undocumented',
          code: 'undocumented',
          pointer: '/paths',
          ...base,
          expected:
            route.kind === 'undocumented-method'
              ? `a method the path documents (${route.allowed.join(', ')})`
              : 'a path the description documents',
          actual: `${shown}${o.status !== undefined ? ` answered HTTP ${o.status}` : ''}`,
        },
      ],
    };
  }
  const { op, variant } = route;
  const at = { operation: op.id, variant, ...base };
  const findings: Finding[] = [];
  // What the checks' verdicts do not give (below): dropped when the user turned the check off.
  const add = (f: Finding) => {
    if (severity(f.check) !== 'off') findings.push(f);
  };
  const keys = variant === 'main' ? sentKeys(model, o) : [];
  const takes = op.auth.transports.map(describeTransport);
  // A key sent the wrong way is one finding (below), not also a request without a key.
  const keyed = keys.length > 0;
  if (
    variant === 'main' &&
    op.auth.required &&
    keyed &&
    !keys.some((k) => takes.includes(describeTransport(k.transport)))
  )
    add({
      kind: kindOf('auth'),
      ...at,
      check: 'auth',
      expected: `the key in ${takes.join(' or ')}`,
      actual: `the key in ${keys.map((k) => describeTransport(k.transport)).join(', ')}`,
    });
  const probe = probeOf(op, variant, o, keyed, redactor);
  if (o.status === undefined) {
    add({
      kind: kindOf('server-errors'),
      ...at,
      check: 'server-errors',
      expected: 'an answer from the deployment',
      actual: `no answer (${redactor.text(o.error ?? 'unknown error')}); the client got HTTP ${o.gatewayStatus ?? 502}`,
    });
    return { findings, probe, variant, judged: ['server-errors'] };
  }
  const judged = [...(truncated(o) ? HEAD_CHECKS : BODY_CHECKS)];
  if (probe.role === 'no-key') judged.push('auth');
  const ctx = { model, op, set: { variant, probes: [probe] }, config: CONFIG };
  for (const check of judged)
    for (const { violation: v, severity, code } of verdictsOf(
      check,
      checkDefinition(check).judge(ctx).violations,
      settings,
    ))
      findings.push({
        kind: severity,
        ...at,
        check,
        expected: v.expected,
        actual: redactor.composed(v.actual),
        ...(v.errors?.length ? { errors: v.errors.map((e) => redactor.composed(e)) } : {}),
        ...(v.excerpt !== undefined ? { excerpt: redactor.composed(v.excerpt) } : {}),
        ...(v.description
          ? { pointer: v.description.pointer, code: v.description.code }
          : severity === 'warning'
            ? { pointer: op.pointer, code }
            : {}),
      });
  // A body in the wrong envelope also lacks the right code and fails its schema: one violation,
  // reported once, by the envelope check.
  if (findings.some((f) => f.check === 'envelope' && f.kind === 'failure'))
    for (let i = findings.length - 1; i >= 0; i--)
      if (['business-code', 'schema'].includes(findings[i]!.check)) findings.splice(i, 1);
  // Retry-After tells a client when to come back (the service's rate limits): a 429 without it
  // leaves clients guessing. Declared as required, the headers check already says so.
  const retryAfterRequired = declaredResponse(op, 429)?.headers.some(
    (h) => h.name.toLowerCase() === 'retry-after' && h.required,
  );
  if (
    o.status === 429 &&
    probe.exchange.headers['retry-after'] === undefined &&
    !retryAfterRequired
  )
    add({
      kind: kindOf('headers'),
      ...at,
      check: 'headers',
      expected: 'a Retry-After header on HTTP 429',
      actual: 'no Retry-After header',
    });
  return { findings, probe, variant, judged };
}
