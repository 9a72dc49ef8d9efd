/**
 * A clock for pacing tests that moves only when told: no test waits on real time, so none breaks on
 * a busy machine, and every wait can be checked to the millisecond.
 */
import type { Clock } from '../../runtime/shared/pacing.ts';

interface Timer {
  at: number;
  resolve(): void;
}

/** Lets every pending promise callback run (a macrotask turn, not a delay). */
export const settle = () => new Promise<void>((r) => setImmediate(r));

export class FakeClock implements Clock {
  private t = 0;
  private timers: Timer[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing each timer due at its own time, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await settle();
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.resolve();
      await settle();
    }
    this.t = end;
    await settle();
  }
}
