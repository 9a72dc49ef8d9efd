/**
 * Client-side pacing: a sliding-window log per operation. Request n + limit is sent no earlier
 * than `windowMs` after request n *completed* (its response headers arrived, or it failed). The
 * gateway counts a request when it arrives, which is always before its response comes back, so
 * this bound holds at the server whatever the network latency, not only at the client.
 * Reservations are taken in call order: concurrent callers queue fairly instead of bursting.
 */
import { WINDOW_MS, type RateLimit } from 'dataapi/model';

export interface RateLimitSetting {
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /** Per operation (or preview variant) id: one window in place of the declared ones. */
  overrides?:
    Record<string, RateLimitSetting | { limit: number; per: RateLimit['per'] }> | undefined;
  /** Extra spacing added to each window (default 5 ms). */
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

interface Slot {
  /** Resolves with the time the request completed. */
  done: Promise<number>;
}

export class SlidingWindowLimiter {
  /** The last `limit` reservations, in call order. */
  private readonly slots: Slot[] = [];

  constructor(
    readonly setting: RateLimitSetting,
    private readonly marginMs = 5,
  ) {
    if (!(setting.limit >= 1) || !(setting.windowMs > 0))
      throw new Error(`invalid rate limit ${JSON.stringify(setting)}`);
  }

  /**
   * Waits for a free slot; resolves with `release`, to call once the response headers arrived or
   * the request failed (rejects if `signal` aborts first; the slot is then released at once).
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    const { limit, windowMs } = this.setting;
    const previous = this.slots.length >= limit ? this.slots[this.slots.length - limit] : undefined;
    let release!: () => void;
    const done = new Promise<number>((resolve) => {
      release = () => resolve(Date.now());
    });
    this.slots.push({ done });
    if (this.slots.length > limit) this.slots.splice(0, this.slots.length - limit);
    if (previous) {
      try {
        const completed = await abortable(previous.done, signal);
        const wait = completed + windowMs + this.marginMs - Date.now();
        if (wait > 0) await sleep(wait, signal);
      } catch (error) {
        release();
        throw error;
      }
    }
    return release;
  }
}

/** Every window of one operation: a call takes a slot in each, shortest window first. */
export class WindowsLimiter {
  private readonly limiters: SlidingWindowLimiter[];

  constructor(settings: RateLimitSetting[], marginMs?: number) {
    this.limiters = settings.map((s) => new SlidingWindowLimiter(s, marginMs));
  }

  /** As SlidingWindowLimiter.acquire, for all windows: `release` frees every slot taken. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    const releases: (() => void)[] = [];
    const releaseAll = () => {
      for (const release of releases) release();
    };
    try {
      for (const limiter of this.limiters) releases.push(await limiter.acquire(signal));
    } catch (error) {
      releaseAll();
      throw error;
    }
    return releaseAll;
  }
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
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
