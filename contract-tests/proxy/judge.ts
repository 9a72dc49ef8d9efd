/**
 * Judges one observed exchange with the one judge (checks/judge-exchange.ts), plus what only
 * traffic shows: the key sent the wrong way, a 429 without Retry-After, an undocumented path or
 * method, the deployment not answering. Every finding is the one record (model/finding.ts), its
 * severity decided by the exchange's sink from the catalogue and the user's settings; nothing here
 * touches the traffic itself.
 */
import {
  declaredResponse,
  type Diagnostics,
  type Finding,
  type FindingInput,
  type SeveritySettings,
  type ServiceModel,
} from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import { exchangeSink, judgeExchange } from '../checks/judge-exchange.ts';
import type { CheckName } from '../checks/registry.ts';
import { expectedGotOf } from '../checks/verdict.ts';
import { RETRY_DEFAULTS, type ContractConfig } from '../config.ts';
import type { ExchangeRecord, Variant } from '../exchange.ts';
import type { Probe } from '../probe.ts';
import { excerptOf } from '../record-excerpt.ts';
import { describeTransport, sentKeys, type SentKey } from './credentials.ts';
import { headerOf, requestUrlOf, truncated, type Observed } from './observed.ts';
import { probeOf, requestOf } from './probe.ts';
import { routeOf } from './route.ts';

/** What a finding of traffic is reported under: a check of the registry, or `undocumented`. */
export type TrafficCheck = CheckName | 'undocumented';

/**
 * A finding of traffic and the check it is reported under (a description's code does not say
 * which). Its evidence always holds the request (method, URL with the key redacted), the status
 * when answered, what was expected and what came.
 */
export interface TrafficFinding {
  check: TrafficCheck;
  finding: Finding;
}

/** The evidence every finding of traffic carries. */
export function observedOf(f: Finding) {
  const e = f.evidence!;
  return {
    method: e.request!.method,
    url: e.request!.url,
    status: e.status,
    expected: e.expected!,
    actual: e.actual!,
    errors: e.errors,
    excerpt: e.excerpt,
  };
}

export interface Judgement {
  findings: TrafficFinding[];
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
  findings: TrafficFinding[];
  judged: CheckName[];
  variant?: Variant;
  /** Absent for an undocumented request. */
  operation?: string;
  /** Absent too when a judging thread knows the reports will not keep it (record-sample.ts). */
  record?: ExchangeRecord;
}

export function judgedExchange(
  j: Judgement,
  /** Whether the reports may keep the record (record-sample.ts); without it, it goes with it. */
  keep?: (operation: string, variant: Variant, record: ExchangeRecord, failing: boolean) => boolean,
): JudgedExchange {
  // Set one by one, in this order: optional parts spread in cost microseconds per exchange.
  const out: JudgedExchange = { findings: j.findings, judged: j.judged };
  if (j.variant) out.variant = j.variant;
  if (j.probe) {
    const operation = (out.operation = j.probe.op.id);
    const record = j.probe.exchange.record;
    const failing = j.findings.some((f) => f.finding.severity === 'failure');
    if (!keep || keep(operation, j.variant ?? 'main', record, failing)) {
      // Its excerpt is written only now, for a record that goes on (record-excerpt.ts).
      excerptOf(record);
      out.record = record;
    }
  }
  return out;
}

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
  /** The keys the request carried, when the caller has read them already (sentKeys). */
  carried?: SentKey[],
): Judgement {
  const method = o.method.toUpperCase();
  const path = requestUrlOf(o).pathname;
  // A browser's CORS preflight asks the server, not the API: no operation documents it.
  if (method === 'OPTIONS' && headerOf(o.requestHeaders, 'access-control-request-method'))
    return { findings: [], judged: [] };
  const sink = exchangeSink(settings);
  const route = routeOf(model, method, path);
  const request = requestOf(o, redactor);
  const answered = o.status !== undefined ? { status: o.status } : {};
  if (route.kind !== 'operation') {
    if (refusedAsUndocumented(route.kind, o.status)) return { judged: [], findings: [] };
    const expected =
      route.kind === 'undocumented-method'
        ? `a method the path documents (${route.allowed.join(', ')})`
        : 'a path the description documents';
    const actual = `${method} ${redactor.url(path)}${o.status !== undefined ? ` answered HTTP ${o.status}` : ''}`;
    const finding = sink.add({
      code: 'undocumented',
      message: `${actual} (expected ${expected})`,
      pointer: '/paths',
      evidence: { request, ...answered, expected, actual },
    });
    return { judged: [], findings: finding ? [{ check: 'undocumented', finding }] : [] };
  }
  const { op, variant } = route;
  const findings: TrafficFinding[] = [];
  // What the checks do not see (below): no place in the description, the run lists it as observed.
  const add = (check: CheckName, expected: string, actual: string) =>
    added(findings, sink, check, {
      code: check,
      message: `${request.purpose}: ${expectedGotOf(expected, actual)}`,
      operation: op.id,
      variant,
      evidence: { request, ...answered, expected, actual },
    });
  const keys = variant === 'main' ? (carried ?? sentKeys(model, o)) : [];
  const takes = op.auth.transports.map(describeTransport);
  // A key sent the wrong way is one finding (below), not also a request without a key.
  const keyed = keys.length > 0;
  if (
    variant === 'main' &&
    op.auth.required &&
    keyed &&
    !keys.some((k) => takes.includes(describeTransport(k.transport)))
  )
    add(
      'auth',
      `the key in ${takes.join(' or ')}`,
      `the key in ${keys.map((k) => describeTransport(k.transport)).join(', ')}`,
    );
  const probe = probeOf(op, variant, o, keyed, redactor, request);
  if (o.status === undefined) {
    add(
      'server-errors',
      'an answer from the deployment',
      `no answer (${redactor.text(o.error ?? 'unknown error')}); the client got HTTP ${o.gatewayStatus ?? 502}`,
    );
    return { findings, probe, variant, judged: ['server-errors'] };
  }
  const judged = [...(truncated(o) ? HEAD_CHECKS : BODY_CHECKS)];
  if (probe.role === 'no-key') judged.push('auth');
  const ctx = { model, op, set: { variant, probes: [probe] }, config: CONFIG };
  const checked = judgeExchange(ctx, judged, sink, redactor);
  // A body in the wrong envelope also lacks the right code and fails its schema: one violation,
  // reported once, by the envelope check.
  const wrongEnvelope = checked.some(
    (f) => f.check === 'envelope' && f.finding.severity === 'failure',
  );
  for (const f of checked)
    if (!wrongEnvelope || (f.check !== 'business-code' && f.check !== 'schema')) findings.push(f);
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
    add('headers', 'a Retry-After header on HTTP 429', 'no Retry-After header');
  return { findings, probe, variant, judged };
}

/** A finding the sink kept (not turned off by the user), with its check. */
function added(
  findings: TrafficFinding[],
  sink: Diagnostics,
  check: CheckName,
  input: FindingInput,
): void {
  const finding = sink.add(input);
  if (finding) findings.push({ check, finding });
}
