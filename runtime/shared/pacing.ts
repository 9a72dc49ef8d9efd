/**
 * Sliding-window pacing, the one implementation behind the client's per-operation limiter
 * (runtime/client/rate-limit.ts) and the contract runner's scheduler (contract-tests/scheduler.ts).
 *
 * A window `{ limit, windowMs }` lets request n + limit start no earlier than `windowMs + margin`
 * after request n *completed* (its answer arrived, or it failed). A server counts a request when it
 * arrives, which is always before its answer comes back, so this bound holds at the server whatever
 * the latency; timing from the send instead lets a slow request and a fast one land closer together
 * than the window. Reservations are taken in call order: concurrent callers queue fairly.
 */

export interface PaceWindow {
  limit: number;
  windowMs: number;
}

/** Where the pacer reads time and waits: the monotonic clock, or a fake one in tests. */
export interface Clock {
  /** Milliseconds on a monotonic scale (never goes back when the wall clock is set). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Extra spacing per window: timer and clock granularity on both sides (a server that counts in
 * whole milliseconds, a timer that fires a millisecond early).
 */
export const PACING_MARGIN_MS = 10;

/** setTimeout as a promise that an AbortSignal can cut short. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const monotonicClock: Clock = { now: () => performance.now(), sleep };

/** A promise that rejects with the signal's reason if it aborts first. */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
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

export interface PacerOptions {
  /** Extra spacing added to each window (default PACING_MARGIN_MS). */
  marginMs?: number;
  clock?: Clock;
  /**
   * A slot whose release never comes (a worker that died) counts as completed this long after
   * it was granted. Without it such a slot holds its window for good.
   */
  leaseMs?: number;
}

interface Slot {
  /** When the slot was granted (its request could start). */
  granted: Promise<number>;
  /** When the request completed (release was called). */
  done: Promise<number>;
}

/** One window's log: the last `limit` reservations, in call order. */
class WindowLog {
  private readonly slots: Slot[] = [];

  constructor(
    private readonly window: PaceWindow,
    private readonly marginMs: number,
    private readonly clock: Clock,
    private readonly leaseMs: number | undefined,
  ) {
    if (!(window.limit >= 1) || !(window.windowMs > 0))
      throw new Error(`invalid rate limit ${JSON.stringify(window)}`);
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    const { limit, windowMs } = this.window;
    const previous = this.slots.length >= limit ? this.slots[this.slots.length - limit] : undefined;
    let grant!: (at: number) => void;
    let complete!: (at: number) => void;
    const granted = new Promise<number>((r) => (grant = r));
    const done = new Promise<number>((r) => (complete = r));
    // Once released, a slot that was never granted (aborted while waiting) counts from now.
    const release = () => {
      const at = this.clock.now();
      grant(at);
      complete(at);
    };
    this.slots.push({ granted, done });
    if (this.slots.length > limit) this.slots.splice(0, this.slots.length - limit);
    try {
      if (previous) {
        const completed = await this.completionOf(previous, signal);
        const wait = completed + windowMs + this.marginMs - this.clock.now();
        if (wait > 0) await this.clock.sleep(wait, signal);
      }
    } catch (error) {
      release();
      throw error;
    }
    grant(this.clock.now());
    return release;
  }

  /** When `slot` completed: its release, or the end of its lease if that comes first. */
  private async completionOf(slot: Slot, signal?: AbortSignal): Promise<number> {
    if (this.leaseMs === undefined) return abortable(slot.done, signal);
    const grantedAt = await abortable(slot.granted, signal);
    const expiry = grantedAt + this.leaseMs;
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([
        slot.done,
        this.clock.sleep(expiry - this.clock.now(), stop.signal).then(() => expiry),
      ]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Cancels the lease timer once the release came first (race has already settled).
      if (!stop.signal.aborted) stop.abort();
    }
  }
}

/**
 * Every window of one operation: a request takes a slot in each, in the order given, and frees
 * them all with the `release` it gets.
 */
export class SlidingWindowPacer {
  private readonly logs: WindowLog[];

  constructor(
    readonly windows: readonly PaceWindow[],
    options: PacerOptions = {},
  ) {
    const clock = options.clock ?? monotonicClock;
    const margin = options.marginMs ?? PACING_MARGIN_MS;
    this.logs = windows.map((w) => new WindowLog(w, margin, clock, options.leaseMs));
  }

  /**
   * Waits until the request may start; resolves with `release`, to call once its answer arrived
   * or it failed (rejects if `signal` aborts first; the slots taken are then released at once).
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    const releases: (() => void)[] = [];
    const releaseAll = () => {
      for (const release of releases) release();
    };
    try {
      for (const log of this.logs) releases.push(await log.acquire(signal));
    } catch (error) {
      releaseAll();
      throw error;
    }
    return releaseAll;
  }
}
