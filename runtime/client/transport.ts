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
  /** The last attempt's signal, the timer that aborts it and its parts, held until the call ends. */
  attempt?: Attempt;
  /** Total time spent waiting before retries. */
  waitedMs: number;
  lastRetryAfterMs?: number;
}

export function newCallContext(
  init: Omit<CallContext, 'attempts' | 'waitedMs' | 'attempt' | 'lastRetryAfterMs'>,
): CallContext {
  return { ...init, attempts: 0, waitedMs: 0 };
}

/**
 * One attempt's abort: its own controller, aborted by a timer or by the caller's signal. Not
 * AbortSignal.timeout/any: undici's request links signals weakly, and after a garbage collection
 * a stalled body was never aborted (nodejs/undici#4068). The context holds the controller and the
 * request strongly until the call ends, and the timer holds the controller until it fires.
 */
interface Attempt {
  controller: AbortController;
  request?: Request;
  timedOut: boolean;
  timer?: ReturnType<typeof setTimeout>;
  forward?: () => void;
}

function startAttempt(ctx: CallContext): Attempt {
  endAttempt(ctx);
  const controller = new AbortController();
  const attempt: Attempt = { controller, timedOut: false };
  if (ctx.timeoutMs > 0) {
    attempt.timer = setTimeout(() => {
      attempt.timedOut = true;
      attempt.controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    }, ctx.timeoutMs);
    // Like AbortSignal.timeout, the timer alone does not keep a process alive.
    attempt.timer.unref?.();
  }
  const { signal } = ctx;
  if (signal?.aborted) controller.abort(signal.reason);
  else if (signal) {
    attempt.forward = () => attempt.controller.abort(signal.reason);
    signal.addEventListener('abort', attempt.forward, { once: true });
  }
  return (ctx.attempt = attempt);
}

/** Stops the last attempt's timer and forwarding (its answer is read whole, or it failed). */
export function endAttempt(ctx: CallContext): void {
  const a = ctx.attempt;
  if (!a) return;
  clearTimeout(a.timer);
  if (a.forward) ctx.signal?.removeEventListener('abort', a.forward);
}

export function timedOut(ctx: CallContext): boolean {
  return ctx.attempt?.timedOut === true && ctx.signal?.aborted !== true;
}

export function policyFetch(base: FetchLike, ctx: CallContext): FetchLike {
  return async (request) => {
    const { policy } = ctx;
    for (let retry = 0; ; retry++) {
      const release = (await ctx.limiter?.acquire(ctx.signal)) ?? (() => undefined);
      const current = startAttempt(ctx);
      const attempt = (current.request = new Request(request.clone(), {
        signal: current.controller.signal,
      }));
      ctx.attempts++;
      const canRetry = ctx.retryable && retry < policy.retries;
      let response: Response;
      try {
        response = await base(attempt);
        release();
      } catch (error) {
        release();
        endAttempt(ctx);
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
      endAttempt(ctx);
      ctx.waitedMs += wait;
      await sleep(wait, ctx.signal);
    }
  };
}
