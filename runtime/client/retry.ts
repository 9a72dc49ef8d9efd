/**
 * When and how long to wait before sending a request again: exponential backoff with jitter,
 * or the server's `Retry-After` when it gives one (read by runtime/shared/retry-after.ts).
 */

export { parseRetryAfter } from '../shared/retry-after.ts';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number | undefined;
  /** First backoff step (default 250 ms); doubles on each retry. */
  baseDelayMs?: number | undefined;
  /** Longest backoff step (default 8 s). */
  maxDelayMs?: number | undefined;
  /** A `Retry-After` longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number | undefined;
  /** HTTP statuses worth retrying (default 429 and 502). Network errors are always retried. */
  statuses?: number[] | undefined;
  /**
   * Also retry operations that change state (`writes` in the model: uploads, submits, POSTs not
   * marked otherwise). Off by default: a lost response does not prove the server did nothing.
   */
  writes?: boolean | undefined;
  /** Random source for the jitter (tests). */
  random?: (() => number) | undefined;
}

export type RetryPolicy = Required<Omit<RetryOptions, 'random'>> & { random: () => number };

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  const o = options === false ? { retries: 0 } : (options ?? {});
  return {
    retries: o.retries ?? 3,
    baseDelayMs: o.baseDelayMs ?? 250,
    maxDelayMs: o.maxDelayMs ?? 8000,
    maxRetryAfterMs: o.maxRetryAfterMs ?? 60_000,
    statuses: o.statuses ?? [429, 502],
    writes: o.writes ?? false,
    random: o.random ?? Math.random,
  };
}

/** Backoff before retry number `retry` (0-based): half fixed, half random ("equal jitter"). */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + (policy.random() * step) / 2);
}
