/**
 * The one sliding-window pacer behind the client's limiter and the runner's scheduler, on a clock
 * that moves only when told: each wait is checked to the millisecond, and no test depends on how
 * busy the machine is.
 */
import { describe, expect, it } from 'vitest';
import { PACING_MARGIN_MS, SlidingWindowPacer } from '../../runtime/shared/pacing.ts';
import { WindowsLimiter } from '../../runtime/client/rate-limit.ts';
import { LocalScheduler } from '../../contract-tests/scheduler.ts';
import { FakeClock, settle } from './fake-clock.ts';

/** Starts an acquire and records when (on the fake clock) it was granted. */
function track(pacer: SlidingWindowPacer, clock: FakeClock, signal?: AbortSignal) {
  const t: { at?: number; release?: () => void; error?: unknown } = {};
  void pacer.acquire(signal).then(
    (release) => {
      t.at = clock.now();
      t.release = release;
    },
    (error: unknown) => (t.error = error),
  );
  return t;
}

describe('the sliding-window pacer', () => {
  it('grants `limit` at once, the next one window (plus the margin) after the first completed', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer([{ limit: 2, windowMs: 100 }], { clock });
    const [a, b, c] = [track(pacer, clock), track(pacer, clock), track(pacer, clock)];
    await settle();
    expect([a.at, b.at, c.at]).toEqual([0, 0, undefined]);
    await clock.advance(30);
    a.release!();
    await clock.advance(100 + PACING_MARGIN_MS - 1);
    expect(c.at).toBeUndefined();
    await clock.advance(1);
    expect(c.at).toBe(30 + 100 + PACING_MARGIN_MS);
  });

  it('holds a slot while its request is in flight, however long', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer([{ limit: 1, windowMs: 100 }], { clock, marginMs: 0 });
    const a = track(pacer, clock);
    const b = track(pacer, clock);
    await clock.advance(10_000);
    expect([a.at, b.at]).toEqual([0, undefined]);
    a.release!();
    await clock.advance(100);
    expect(b.at).toBe(10_100);
  });

  it('grants in call order', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer([{ limit: 1, windowMs: 50 }], { clock, marginMs: 0 });
    const order: number[] = [];
    const all = [0, 1, 2, 3].map((i) =>
      pacer.acquire().then((release) => {
        order.push(i);
        release();
      }),
    );
    await clock.advance(1000);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(clock.now()).toBe(1000);
  });

  it('keeps every window: a short one and a longer one', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer(
      [
        { limit: 2, windowMs: 100 },
        { limit: 3, windowMs: 400 },
      ],
      { clock, marginMs: 0 },
    );
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const p = pacer.acquire();
      await clock.advance(i < 2 ? 0 : i === 2 ? 100 : 300);
      (await p)();
      times.push(clock.now());
    }
    // The short window spaces the third grant; the long one holds the fourth a whole window.
    expect(times).toEqual([0, 0, 100, 400]);
  });

  it('releases the slot of an aborted wait at once', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer([{ limit: 1, windowMs: 100 }], { clock, marginMs: 0 });
    const a = track(pacer, clock);
    const controller = new AbortController();
    const b = track(pacer, clock, controller.signal);
    const c = track(pacer, clock);
    await settle();
    controller.abort(new Error('caller gave up'));
    await settle();
    expect((b.error as Error).message).toBe('caller gave up');
    a.release!();
    // c waits one window after b's slot was freed, not for a request that never went.
    await clock.advance(100);
    expect(c.at).toBe(100);
    expect(clock.pending).toBe(0);
  });

  it('counts a slot never released as completed when its lease ends', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer([{ limit: 1, windowMs: 100 }], {
      clock,
      marginMs: 0,
      leaseMs: 5000,
    });
    track(pacer, clock);
    const b = track(pacer, clock);
    await clock.advance(5099);
    expect(b.at).toBeUndefined();
    await clock.advance(1);
    expect(b.at).toBe(5100);
  });

  it('cancels the lease timer when the release comes first', async () => {
    const clock = new FakeClock();
    const pacer = new SlidingWindowPacer([{ limit: 1, windowMs: 100 }], {
      clock,
      marginMs: 0,
      leaseMs: 5000,
    });
    const a = track(pacer, clock);
    const b = track(pacer, clock);
    await settle();
    a.release!();
    await clock.advance(100);
    expect(b.at).toBe(100);
    expect(clock.pending).toBe(0);
  });

  it('refuses a window that cannot be kept', () => {
    expect(() => new SlidingWindowPacer([{ limit: 0, windowMs: 100 }])).toThrow(/invalid rate/);
    expect(() => new SlidingWindowPacer([{ limit: 1, windowMs: 0 }])).toThrow(/invalid rate/);
  });
});

describe('one pacer, one margin, for the client and the runner', () => {
  it('the client limiter is the shared pacer', () => {
    expect(new WindowsLimiter([{ limit: 1, windowMs: 1 }])).toBeInstanceOf(SlidingWindowPacer);
  });

  it('the runner spaces a key by window plus the same margin, on its clock', async () => {
    const clock = new FakeClock();
    const s = new LocalScheduler(undefined, undefined, undefined, clock);
    const limit = {
      limit: 1,
      per: 'second' as const,
      windowMs: 1000,
      source: 'operation' as const,
    };
    const first = await s.acquire('op', [limit]);
    let second: number | undefined;
    const next = s.acquire('op', [limit]).then((g) => (second = g.ok ? clock.now() : -1));
    await clock.advance(5000);
    expect(second).toBeUndefined();
    if (first.ok) s.release('op', first.token);
    await clock.advance(1000 + PACING_MARGIN_MS);
    await next;
    expect(second).toBe(5000 + 1000 + PACING_MARGIN_MS);
  });
});
