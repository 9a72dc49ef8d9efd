/**
 * The fetch that openapi-fetch calls for one operation call: paces it through the operation's
 * rate-limit windows, bounds each attempt with a timeout signal and retries what is worth retrying.
 */
import { parseRetryAfter, backoffMs, type RetryPolicy } from './retry.ts';
import { sleep, type WindowsLimiter } from './rate-limit.ts';

export type FetchLike = (input: Request) => Promise<Response>;

export interface CallContext {
  limiter?: WindowsLimiter;
  policy: RetryPolicy;
  /** Whether this operation may be sent again (safe, or writes allowed by the policy). */
  retryable: boolean;
  /** Per attempt; 0 disables. */
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
  // Filled in while the call runs:
  attempts: number;
  /** The timeout signal of the last attempt: aborted means the attempt timed out. */
  timeout?: AbortSignal;
  /** Total time spent waiting before retries. */
  waitedMs: number;
  lastRetryAfterMs?: number;
}

export function newCallContext(
  init: Omit<CallContext, 'attempts' | 'waitedMs' | 'timeout' | 'lastRetryAfterMs'>,
): CallContext {
  return { ...init, attempts: 0, waitedMs: 0 };
}

export function timedOut(ctx: CallContext): boolean {
  return ctx.timeout?.aborted === true && ctx.signal?.aborted !== true;
}

export function policyFetch(base: FetchLike, ctx: CallContext): FetchLike {
  return async (request) => {
    const { policy } = ctx;
    for (let retry = 0; ; retry++) {
      const release = (await ctx.limiter?.acquire(ctx.signal)) ?? (() => undefined);
      const signals: AbortSignal[] = [];
      if (ctx.timeoutMs > 0) signals.push((ctx.timeout = AbortSignal.timeout(ctx.timeoutMs)));
      if (ctx.signal) signals.push(ctx.signal);
      const attempt = signals.length
        ? new Request(request.clone(), { signal: AbortSignal.any(signals) })
        : request.clone();
      ctx.attempts++;
      const canRetry = ctx.retryable && retry < policy.retries;
      let response: Response;
      try {
        response = await base(attempt);
        release();
      } catch (error) {
        release();
        // A timeout or the caller's abort ends the call; a network failure may be retried.
        if (!canRetry || timedOut(ctx) || ctx.signal?.aborted) throw error;
        const wait = backoffMs(policy, retry);
        ctx.waitedMs += wait;
        await sleep(wait, ctx.signal);
        continue;
      }
      if (!canRetry || !policy.statuses.includes(response.status)) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined) ctx.lastRetryAfterMs = retryAfter;
      if (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs) return response;
      const wait = retryAfter ?? backoffMs(policy, retry);
      await response.body?.cancel().catch(() => undefined);
      ctx.waitedMs += wait;
      await sleep(wait, ctx.signal);
    }
  };
}
