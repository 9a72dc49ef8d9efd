/**
 * Per-key, per-operation rate limits (op.rateLimit: docs/service.md §7), as fixed windows. Over the
 * limit the server answers 429 with Retry-After in whole seconds until the window ends.
 */
import type { RateLimit } from 'dataapi/model';

export interface RateLimitOptions {
  /** Overrides every operation's limit (tests, load runs). */
  override?: { limit: number; windowMs: number };
  /** Clock (tests). */
  now?: () => number;
}

export interface RateLimiter {
  /** Counts one request; returns seconds to wait when it is over the limit, else 0. */
  take(bucket: string, limit: RateLimit): number;
}

/** Window entries are dropped once this many accumulate, so random keys cannot grow memory. */
const MAX_BUCKETS = 50_000;

export function createRateLimiter(options: RateLimitOptions = {}): RateLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { resetAt: number; count: number }>();
  return {
    take(bucket, rate) {
      const limit = options.override?.limit ?? rate.limit;
      const windowMs = options.override?.windowMs ?? rate.windowMs;
      const t = now();
      let w = windows.get(bucket);
      if (!w || w.resetAt <= t) {
        if (!w && windows.size >= MAX_BUCKETS) {
          for (const [k, e] of windows) if (e.resetAt <= t) windows.delete(k);
          if (windows.size >= MAX_BUCKETS) windows.clear();
        }
        w = { resetAt: t + windowMs, count: 0 };
        windows.set(bucket, w);
      }
      w.count += 1;
      if (w.count <= limit) return 0;
      return Math.max(1, Math.ceil((w.resetAt - t) / 1000));
    },
  };
}
