/**
 * Sends one request to the target under the scheduler, with a hard timeout and 429 retries after
 * Retry-After, and returns everything a check needs. Never throws: a missing response is recorded.
 */
import type { Operation } from 'dataapi/model';
import { excerpt, parseRetryAfter, redactorFor, type Redactor } from 'dataapi/runtime/shared';
import type { ContractConfig } from './config.ts';
import type { ExchangeRecord } from './exchange.ts';
import type { Outcome, Scheduler } from './scheduler.ts';
import type { DescriptionWarning } from './warnings.ts';
import { sendWire, type WireResponse } from './wire-request.ts';

export interface OutgoingRequest {
  method: string;
  /** Path with parameters already substituted, plus the query string. */
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  purpose: string;
  parameters: string[];
}

export interface Exchange {
  record: ExchangeRecord;
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when not JSON or empty). */
  json?: unknown;
  /** Raw body text. */
  text?: string;
  /** The body was JSON that parsed. */
  isJson: boolean;
  /** No response because the budget refused the request (checks skip, they do not fail). */
  budgetRefused: boolean;
  /** Retries ran out on 429. */
  rateLimited: boolean;
  /** Headers of the 429 answers that were retried (their Retry-After is checked too). */
  retriedHeaders: Record<string, string>[];
}

export interface Transport {
  config: ContractConfig;
  scheduler: Scheduler;
  /** The operation whose rate limit the request counts against. */
  send(op: Operation, req: OutgoingRequest): Promise<Exchange>;
  /** The operation's response example warnings worked out by the runner (absent: here). */
  responseExampleWarnings?(op: Operation): Promise<DescriptionWarning[]>;
}

/** What every send of one transport shares. */
interface Sender {
  config: ContractConfig;
  scheduler: Scheduler;
  redactor: Redactor;
}

/** One request of a send: where it goes and the record its exchange fills in. */
interface Attempting {
  op: Operation;
  req: OutgoingRequest;
  url: string;
  /** Timeouts are counted per route: one slow path does not stop the others (breakers.ts). */
  route: string;
  base: Exchange;
}

export function createTransport(config: ContractConfig, scheduler: Scheduler): Transport {
  const sender: Sender = { config, scheduler, redactor: redactorFor([config.appkey]) };
  return { config, scheduler, send: (op, req) => send(sender, op, req) };
}

/** The steps of a send: attempt, retry a 429 while allowed, then read the answer. */
async function send(s: Sender, op: Operation, req: OutgoingRequest): Promise<Exchange> {
  const a = started(s, op, req);
  for (let attempt = 0; ; attempt++) {
    const tried = await attemptOnce(s, a);
    if ('exchange' in tried) return tried.exchange;
    const headers = redactedHeaders(s.redactor, tried.res.headers);
    // A 429 is retried while the run's 429 breaker is closed and its retry budget lasts.
    if (
      tried.res.status === 429 &&
      attempt < s.config.maxRetries &&
      (await s.scheduler.mayRetry())
    ) {
      await waitToRetry(s.config, a.base, headers, attempt);
      continue;
    }
    return readAnswer(s.redactor, op, a.base, tried.res.status, headers, tried.res.text);
  }
}

/** The exchange before anything is sent: its record, no answer yet. */
function started(s: Sender, op: Operation, req: OutgoingRequest): Attempting {
  const url = `${s.config.baseUrl}${req.pathAndQuery}`;
  const record: ExchangeRecord = {
    request: { method: req.method.toUpperCase(), url: s.redactor.url(url), purpose: req.purpose },
    durationMs: 0,
    waitedMs: 0,
    retries: 0,
    parameters: req.parameters,
  };
  const base: Exchange = {
    record,
    headers: {},
    isJson: false,
    budgetRefused: false,
    rateLimited: false,
    retriedHeaders: [],
  };
  return { op, req, url, route: `${op.id} ${req.pathAndQuery.split('?')[0]}`, base };
}

/**
 * One request under the scheduler: the answer's status and text, or the finished exchange when
 * the budget refused it or no answer came.
 */
async function attemptOnce(
  s: Sender,
  a: Attempting,
): Promise<{ res: WireResponse } | { exchange: Exchange }> {
  const { op, req, url, route, base } = a;
  const { record } = base;
  const grant = await s.scheduler.acquire(op.id, op.rateLimits, route);
  if (!grant.ok) {
    record.error = grant.reason;
    return { exchange: { ...base, budgetRefused: true } };
  }
  const started = performance.now();
  let res: WireResponse;
  const outcome: Outcome = { route };
  try {
    // One timeout covers headers and body: a body that trickles forever also times out.
    res = await sendWire(url, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      timeoutMs: s.config.timeoutMs,
    });
    outcome.status = res.status;
  } catch (err) {
    record.durationMs += performance.now() - started;
    record.error = s.redactor.text(describeSendError(err, s.config.timeoutMs));
    outcome.timedOut = isTimeout(err);
    return { exchange: base };
  } finally {
    // The slot's window starts now that the answer is in (see LocalScheduler); the outcome
    // feeds the run's breakers (breakers.ts).
    await s.scheduler.release(op.id, grant.token, outcome);
  }
  record.durationMs += performance.now() - started;
  return { res };
}

/** Values the checks still judge: a short key is only removed where it is the whole value. */
function redactedHeaders(
  redactor: Redactor,
  received: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(received)) headers[k] = redactor.exact(v);
  return headers;
}

/** Waits out a 429 (its Retry-After, else a backoff) and records the retry. */
async function waitToRetry(
  config: ContractConfig,
  base: Exchange,
  headers: Record<string, string>,
  attempt: number,
): Promise<void> {
  const wait = retryAfterMs(headers['retry-after'], attempt, config.maxRetryWaitMs);
  base.record.retries++;
  base.retriedHeaders.push(headers);
  base.record.waitedMs += wait;
  await new Promise((r) => setTimeout(r, wait));
}

/** The answer as the checks read it: parsed, redacted, and summarised in the record. */
function readAnswer(
  redactor: Redactor,
  op: Operation,
  base: Exchange,
  status: number,
  headers: Record<string, string>,
  raw: string,
): Exchange {
  const { record } = base;
  let json: unknown;
  let isJson = false;
  // A target may echo the key back (in a body, a header, an error text): remove it here,
  // before any check excerpts the answer, so no message or report can carry it, whole or cut.
  // (Parsed before the text is cleaned: a replacement must not break the JSON.)
  if (raw.length > 0) {
    try {
      json = redactor.deep(JSON.parse(raw), 'exact');
      isJson = true;
    } catch {
      // not JSON: content-type and schema checks report it
    }
  }
  const text = redactor.composed(raw);
  record.status = status;
  if (headers['content-type']) record.contentType = headers['content-type'];
  if (headers['x-dataapi-reason']) record.reason = redactor.text(headers['x-dataapi-reason']);
  // Cut from the redacted value: an excerpt can only cut `***` short, never the key.
  record.excerpt = redactor.text(excerpt(isJson ? json : text, 200));
  const code = businessCodeOf(op, json);
  if (code !== undefined) record.businessCode = code;
  return {
    ...base,
    headers,
    ...(isJson ? { json } : {}),
    text,
    isJson,
    rateLimited: status === 429,
  };
}

export function businessCodeOf(op: Operation, body: unknown): number | undefined {
  const env = op.envelope;
  if (!env || typeof body !== 'object' || body === null) return undefined;
  const status = (body as Record<string, unknown>)[env.statusKey];
  if (typeof status !== 'object' || status === null) return undefined;
  const code = (status as Record<string, unknown>)[env.codeField];
  return typeof code === 'number' ? code : undefined;
}

/**
 * How long to wait before retrying a 429: its Retry-After (runtime/shared/retry-after.ts, as the
 * client reads it), or an exponential fallback when it is absent or not valid; capped.
 */
export function retryAfterMs(header: string | undefined, attempt: number, capMs: number): number {
  return Math.min(parseRetryAfter(header) ?? 1000 * 2 ** attempt, capMs);
}

function isTimeout(err: unknown): boolean {
  return (err as { name?: string }).name === 'TimeoutError';
}

function describeSendError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; code?: string };
  if (isTimeout(err)) return `no response within the timeout of ${timeoutMs} ms`;
  const message = e.message ?? String(err);
  // Node's messages mostly name their code already (`connect ECONNREFUSED 127.0.0.1:9`).
  const code = e.code && !message.includes(e.code) ? ` (${e.code})` : '';
  return `request failed: ${message}${code}`;
}
