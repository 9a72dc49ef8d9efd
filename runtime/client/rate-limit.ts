/**
 * Client-side pacing: one sliding-window pacer per operation (runtime/shared/pacing.ts, the same
 * one the contract runner uses). Request n + limit is sent no earlier than `windowMs` after
 * request n *completed* (its response headers arrived, or it failed).
 */
import { WINDOW_MS, type RateLimit } from '../../model/types.ts';
import { SlidingWindowPacer } from '../shared/pacing.ts';

export { sleep } from '../shared/pacing.ts';

export interface RateLimitSetting {
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /** Per operation (or preview variant) id: one window in place of the declared ones. */
  overrides?:
    Record<string, RateLimitSetting | { limit: number; per: RateLimit['per'] }> | undefined;
  /** Extra spacing added to each window (default PACING_MARGIN_MS, 10 ms). */
  marginMs?: number | undefined;
}

/** The windows an operation's calls are paced by: its `rateLimits`, or the override alone. */
export function settingsOf(
  declared: RateLimit[],
  override?: RateLimitSetting | { limit: number; per: RateLimit['per'] },
): RateLimitSetting[] {
  if (!override) return declared.map((w) => ({ limit: w.limit, windowMs: w.windowMs }));
  return [
    'windowMs' in override
      ? override
      : { limit: override.limit, windowMs: WINDOW_MS[override.per] },
  ];
}

/** One window of an operation (see runtime/shared/pacing.ts): kept for the client's callers. */
export class SlidingWindowLimiter extends SlidingWindowPacer {
  constructor(
    readonly setting: RateLimitSetting,
    marginMs?: number,
  ) {
    super([setting], marginMs === undefined ? {} : { marginMs });
  }
}

/** Every window of one operation: a call takes a slot in each, shortest window first. */
export class WindowsLimiter extends SlidingWindowPacer {
  constructor(settings: RateLimitSetting[], marginMs?: number) {
    super(settings, marginMs === undefined ? {} : { marginMs });
  }
}
