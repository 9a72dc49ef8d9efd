/**
 * Client-side pacing: a sliding-window log per operation. A request is scheduled so that no
 * window of `windowMs` ever holds more than `limit` sends; reservations are taken in call order,
 * so concurrent callers queue fairly instead of bursting. A small margin absorbs the jitter
 * between the moment we send and the moment the gateway counts the arrival.
 */
import type { RateLimit } from 'dataapi/model';

export interface RateLimitSetting {
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /** Per operation (or preview variant) id: replaces the declared limit. */
  overrides?: Record<string, RateLimitSetting | { limit: number; per: RateLimit['per'] }>;
  /** Extra spacing added to each window (default 20 ms). */
  marginMs?: number;
}

const PER_MS: Record<RateLimit['per'], number> = { second: 1000, minute: 60_000, hour: 3_600_000 };

export function settingOf(
  declared: RateLimit,
  override?: RateLimitSetting | { limit: number; per: RateLimit['per'] },
): RateLimitSetting {
  if (!override) return { limit: declared.limit, windowMs: declared.windowMs };
  return 'windowMs' in override
    ? override
    : { limit: override.limit, windowMs: PER_MS[override.per] };
}

export class SlidingWindowLimiter {
  /** Scheduled send times of the last `limit` reservations, ascending. */
  private readonly sends: number[] = [];

  constructor(
    readonly setting: RateLimitSetting,
    private readonly marginMs = 20,
  ) {
    if (!(setting.limit >= 1) || !(setting.windowMs > 0))
      throw new Error(`invalid rate limit ${JSON.stringify(setting)}`);
  }

  /** Reserves the next free slot and resolves when it comes (rejects if `signal` aborts first). */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const { limit, windowMs } = this.setting;
    const oldest = this.sends.length >= limit ? this.sends[this.sends.length - limit] : undefined;
    const at = oldest === undefined ? now : Math.max(now, oldest + windowMs + this.marginMs);
    this.sends.push(at);
    if (this.sends.length > limit) this.sends.splice(0, this.sends.length - limit);
    const wait = at - now;
    if (wait > 0) await sleep(wait, signal);
  }
}

/** setTimeout as a promise that an AbortSignal can cut short. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
