/**
 * `dataapi contract --save-failures DIR`: each failure (a fixed request, or a fuzzing failure
 * shrunk to its minimal request) becomes a small vitest file in DIR that sends the exact request
 * again with fetch and judges the answer with the same check. The key is never in the file: where
 * it went, a marker stands, filled from DATAAPI_APPKEY when the test runs. The target is
 * DATAAPI_BASE_URL, by default the run's --base-url (the mock's default address after a run on
 * the embedded mock). Names and contents depend only on the run's findings: the same run writes
 * the same files.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import type { Exchange, OutgoingRequest } from './http.ts';
import type { Probe, Role } from './probe.ts';
import type { NegativeCase } from './negatives.ts';
import type { Variant } from './exchange.ts';
import type { CheckName } from './checks/registry.ts';
import { exchangeSink, judgeCheck } from './checks/judge-exchange.ts';
import { expectedGotOf } from './checks/verdict.ts';
import { businessCodeOf } from './http.ts';
import { RETRY_DEFAULTS } from './config.ts';

/** Where the key went in the saved request. */
export const KEY_MARK = '{{DATAAPI_APPKEY}}';

/** A failing request as a saved test replays it, and what the check needs to know of it. */
export interface SavedRequest {
  method: string;
  /** Path and query, the key replaced by KEY_MARK. */
  path: string;
  /** Header values, the key replaced by KEY_MARK (`Basic user:{{DATAAPI_APPKEY}}` unencoded). */
  headers: Record<string, string>;
  /** The body's bytes as latin1 text (UTF-8 text stays readable), the key replaced by KEY_MARK. */
  body?: string;
  probe: {
    role: Role;
    /** The operation the request went to (a link's target, for a followed link). */
    operation: string;
    negative?: { label: string; target: string; kind: NegativeCase['kind'] };
    method?: string;
    pageSize?: number;
    uncertain?: boolean;
  };
}

/** What a saved test hands to judgeSaved. */
export interface SavedFailure {
  operation: string;
  variant: Variant;
  check: CheckName;
  request: SavedRequest;
}

/** The probe's request as it was sent, with the key replaced by KEY_MARK. */
export function savedRequest(
  probe: Probe,
  req: OutgoingRequest,
  appkey: string,
): SavedRequest | undefined {
  const hide = (s: string) =>
    appkey ? s.split(encodeURIComponent(appkey)).join(KEY_MARK).split(appkey).join(KEY_MARK) : s;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const basic = /^basic (.+)$/i.exec(v);
    const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : undefined;
    headers[k] =
      decoded !== undefined && appkey && decoded.includes(appkey)
        ? `Basic ${hide(decoded)}`
        : hide(v);
  }
  const body =
    req.body === undefined
      ? undefined
      : typeof req.body === 'string'
        ? Buffer.from(req.body, 'utf8').toString('latin1')
        : Buffer.from(req.body).toString('latin1');
  const keyBytes = Buffer.from(appkey, 'utf8').toString('latin1');
  const n = probe.negative;
  return {
    method: req.method.toUpperCase(),
    path: hide(req.pathAndQuery),
    headers,
    ...(body !== undefined ? { body: appkey ? body.split(keyBytes).join(KEY_MARK) : body } : {}),
    probe: {
      role: probe.role,
      operation: probe.op.id,
      ...(n ? { negative: { label: n.label, target: n.target, kind: n.kind } } : {}),
      ...(probe.method ? { method: probe.method } : {}),
      ...(probe.pageSize !== undefined ? { pageSize: probe.pageSize } : {}),
      ...(probe.uncertain ? { uncertain: true } : {}),
    },
  };
}

/** The request's parts with the key from DATAAPI_APPKEY put back (what a saved test sends). */
export function filledRequest(
  r: SavedRequest,
  appkey: string,
): { path: string; init: { method: string; headers: Record<string, string>; body?: Buffer } } {
  const fill = (s: string, as = appkey) => s.split(KEY_MARK).join(as);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers))
    headers[k] =
      /^basic /i.test(v) && v.includes(KEY_MARK)
        ? `Basic ${Buffer.from(fill(v.slice(6))).toString('base64')}`
        : fill(v);
  const keyBytes = Buffer.from(appkey, 'utf8').toString('latin1');
  return {
    path: fill(r.path, encodeURIComponent(appkey)),
    init: {
      method: r.method,
      headers,
      ...(r.body !== undefined ? { body: Buffer.from(fill(r.body, keyBytes), 'latin1') } : {}),
    },
  };
}

/**
 * Judges a fetch Response to a saved request with the check that failed: its violations, as
 * `expected ..., got ...` lines (empty once the target conforms).
 */
export async function judgeSaved(
  model: ServiceModel,
  failure: SavedFailure,
  res: Response,
): Promise<string[]> {
  const op = model.operations.find((o) => o.id === failure.request.probe.operation);
  const own = model.operations.find((o) => o.id === failure.operation);
  if (!op || !own) throw new Error(`operation ${failure.operation} is not in the model`);
  const text = await res.text();
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  let json: unknown;
  let isJson = false;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
    isJson = text.length > 0;
  } catch {
    isJson = false;
  }
  const code = businessCodeOf(op, json);
  const exchange: Exchange = {
    record: {
      request: { method: failure.request.method, url: failure.request.path, purpose: 'replay' },
      status: res.status,
      ...(headers['content-type'] ? { contentType: headers['content-type'] } : {}),
      ...(code !== undefined ? { businessCode: code } : {}),
      durationMs: 0,
      waitedMs: 0,
      retries: 0,
      parameters: [],
    },
    headers,
    ...(isJson ? { json } : {}),
    text,
    isJson,
    budgetRefused: false,
    rateLimited: false,
    retriedHeaders: [],
  };
  const p = failure.request.probe;
  const probe: Probe = {
    role: p.role,
    op: op as Operation,
    exchange,
    ...(p.negative ? { negative: { ...p.negative, apply: (s) => s } } : {}),
    ...(p.method ? { method: p.method } : {}),
    ...(p.pageSize !== undefined ? { pageSize: p.pageSize } : {}),
    ...(p.uncertain ? { uncertain: true } : {}),
  };
  const ctx = {
    model,
    op: own,
    set: { variant: failure.variant, probes: [probe] },
    config: { baseUrl: '', appkey: '', timeoutMs: 10_000, allowWrites: false, ...RETRY_DEFAULTS },
  };
  // The target's violations only: what the description is to blame for is no failure to replay.
  const lines: string[] = [];
  judgeCheck(failure.check, ctx, exchangeSink(undefined), {
    route: ({ violation: v, input }) => {
      if (!v.description) lines.push(expectedGotOf(v.expected, v.actual));
      return input;
    },
  });
  return lines;
}
