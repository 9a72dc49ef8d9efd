/**
 * The worker's prefetcher (contract-tests/prefetch.ts): work starts in order, at most `limit` at
 * once, a test's own work at once whatever the window, and a failure is its test's, not unhandled.
 */
import { describe, expect, it } from 'vitest';
import { Prefetcher } from '../../contract-tests/prefetch.ts';

/** Work whose start is recorded and whose end the test decides. */
function deferred(started: string[], key: string) {
  let settle!: { resolve: (v: string) => void; reject: (e: Error) => void };
  const start = () =>
    new Promise<string>((resolve, reject) => {
      started.push(key);
      settle = { resolve, reject };
    });
  return { start, settle: () => settle };
}

describe('Prefetcher', () => {
  it('starts nothing until asked, then the window in order, and refills it as work ends', async () => {
    const started: string[] = [];
    const p = new Prefetcher<string>(2);
    const work = ['a', 'b', 'c', 'd'].map((k) => ({ k, ...deferred(started, k) }));
    const handles = work.map((w) => p.add(w.k, w.start));
    expect(started).toEqual([]);
    const first = handles[0]!.get();
    expect(started).toEqual(['a', 'b']);
    work[0]!.settle().resolve('A');
    expect(await first).toBe('A');
    expect(started).toEqual(['a', 'b', 'c']);
    // Asking again gives the same work, not a second start.
    expect(await handles[0]!.get()).toBe('A');
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it("starts a test's own work at once even when the window is full", () => {
    const started: string[] = [];
    const p = new Prefetcher<string>(1);
    const work = ['a', 'b', 'c'].map((k) => ({ k, ...deferred(started, k) }));
    const handles = work.map((w) => p.add(w.k, w.start));
    void handles[0]!.get();
    void handles[2]!.get();
    expect(started).toEqual(['a', 'c']);
  });

  it('keeps the first registration of a key', () => {
    const p = new Prefetcher<string>(1);
    const one = p.add('k', async () => 'one');
    expect(p.add('k', async () => 'two')).toBe(one);
  });

  it('leaves a failure to the test that awaits it (no unhandled rejection meanwhile)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const started: string[] = [];
      const p = new Prefetcher<string>(2);
      const a = deferred(started, 'a');
      const b = deferred(started, 'b');
      const ha = p.add('a', a.start);
      const hb = p.add('b', b.start);
      const first = ha.get();
      b.settle().reject(new Error('b failed'));
      a.settle().resolve('A');
      await first;
      // Long enough for Node to report an unhandled rejection: a turn of the event loop.
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      await expect(hb.get()).rejects.toThrow('b failed');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
