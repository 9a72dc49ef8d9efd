/**
 * Sends one request to the target under the scheduler, with a hard timeout and 429 retries after
 * Retry-After, and returns everything a check needs. Never throws: a missing response is recorded.
 */
import type { Operation } from 'dataapi/model';
import { excerpt, parseRetryAfter, redactorFor } from 'dataapi/runtime/shared';
import type { ContractConfig } from './config.ts';
import type { ExchangeRecord } from './exchange.ts';
import type { Outcome, Scheduler } from './scheduler.ts';

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
}

export function createTransport(config: ContractConfig, scheduler: Scheduler): Transport {
  const redactor = redactorFor([config.appkey]);
  return {
    config,
    scheduler,
    async send(op, req) {
      const url = `${config.baseUrl}${req.pathAndQuery}`;
      // Timeouts are counted per route: one slow path does not stop the others (breakers.ts).
      const route = `${op.id} ${req.pathAndQuery.split('?')[0]}`;
      const record: ExchangeRecord = {
        request: { method: req.method.toUpperCase(), url: redactor.url(url), purpose: req.purpose },
        durationMs: 0,
        waitedMs: 0,
        retries: 0,
        parameters: req.parameters,
      };
      const base = {
        record,
        headers: {},
        isJson: false,
        budgetRefused: false,
        rateLimited: false,
        retriedHeaders: [] as Record<string, string>[],
      };
      for (let attempt = 0; ; attempt++) {
        const grant = await scheduler.acquire(op.id, op.rateLimits, route);
        if (!grant.ok) {
          record.error = grant.reason;
          return { ...base, budgetRefused: true };
        }
        const started = performance.now();
        let res: Response;
        let text: string;
        const outcome: Outcome = { route };
        try {
          // One signal covers headers and body: a body that trickles forever also times out.
          const signal = AbortSignal.timeout(config.timeoutMs);
          res = await fetch(url, {
            method: req.method.toUpperCase(),
            headers: req.headers,
            body: req.body ?? null,
            signal,
            redirect: 'manual',
          });
          outcome.status = res.status;
          text = await res.text();
        } catch (err) {
          record.durationMs += performance.now() - started;
          record.error = redactor.text(describeFetchError(err, config.timeoutMs));
          outcome.timedOut = isTimeout(err);
          return base;
        } finally {
          // The slot's window starts now that the answer is in (see LocalScheduler); the outcome
          // feeds the run's breakers (breakers.ts).
          await scheduler.release(op.id, grant.token, outcome);
        }
        record.durationMs += performance.now() - started;
        const headers: Record<string, string> = {};
        // Values the checks still judge: a short key is only removed where it is the whole value.
        res.headers.forEach((v, k) => (headers[k] = redactor.exact(v)));
        // A 429 is retried while the run's 429 breaker is closed and its retry budget lasts.
        if (res.status === 429 && attempt < config.maxRetries && (await scheduler.mayRetry())) {
          const wait = retryAfterMs(headers['retry-after'], attempt, config.maxRetryWaitMs);
          record.retries++;
          base.retriedHeaders.push(headers);
          record.waitedMs += wait;
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        let json: unknown;
        let isJson = false;
        // A target may echo the key back (in a body, a header, an error text): remove it here,
        // before any check excerpts the answer, so no message or report can carry it, whole or cut.
        // (Parsed before the text is cleaned: a replacement must not break the JSON.)
        if (text.length > 0) {
          try {
            json = redactor.deep(JSON.parse(text), 'exact');
            isJson = true;
          } catch {
            // not JSON: content-type and schema checks report it
          }
        }
        text = redactor.composed(text);
        record.status = res.status;
        if (headers['content-type']) record.contentType = headers['content-type'];
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
          rateLimited: res.status === 429,
        };
      }
    },
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
  const name = (err as { name?: string }).name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (isTimeout(err)) return `no response within the timeout of ${timeoutMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return `request failed: ${e.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}
