import { describe, expect, it } from 'vitest';
import { LocalScheduler } from '../../contract-tests/scheduler.ts';
import { ChannelScheduler, serveSchedulerChannel } from '../../contract-tests/scheduler-channel.ts';
import { FakeClock } from '../shared/fake-clock.ts';

const limit = { limit: 1, per: 'second' as const, windowMs: 100, source: 'operation' as const };
let names = 0;
const channelName = () => `dataapi-scheduler-test-${process.pid}-${++names}`;

/** The runner's scheduler served on a channel, with a fake clock; closed after the body. */
async function served(
  body: (local: LocalScheduler, name: string, clock: FakeClock) => Promise<void>,
  budget?: number,
): Promise<void> {
  const clock = new FakeClock();
  const local = new LocalScheduler(budget, 0, undefined, clock);
  const name = channelName();
  const close = serveSchedulerChannel(local, name, (id) => {
    if (id === 'uncompilable') throw new Error('schema is invalid: data/type must be string');
    return id === 'withBadExample'
      ? [{ code: 'example-invalid', operation: id, pointer: '/p', message: 'bad' }]
      : [];
  });
  try {
    await body(local, name, clock);
  } finally {
    close();
  }
}

describe('the scheduler on a BroadcastChannel (workers that are threads of the runner)', () => {
  it('grants, counts and refuses past the budget as the runner scheduler does', async () => {
    await served(async (local, name) => {
      const remote = new ChannelScheduler(name);
      const first = await remote.acquire('a', [limit], 'a /x');
      const other = await remote.acquire('b', [limit], 'b /y');
      expect(first.ok && other.ok).toBe(true);
      expect(local.requests).toBe(2);
      const refused = await remote.acquire('c', [limit]);
      expect(refused).toEqual({ ok: false, reason: 'request budget of 2 exhausted' });
    }, 2);
  });

  it('applies a release (which has no answer) before the same worker asks again', async () => {
    await served(async (local, name, clock) => {
      const remote = new ChannelScheduler(name);
      const first = await remote.acquire('op', [limit]);
      if (!first.ok) throw new Error(first.reason);
      const outcomes: unknown[] = [];
      const release = local.release.bind(local);
      let delivered!: () => void;
      const arrived = new Promise<void>((resolve) => (delivered = resolve));
      local.release = (key, token, outcome) => (
        outcomes.push(outcome),
        delivered(),
        release(key, token, outcome)
      );
      remote.release('op', first.token, { route: 'op /x', status: 200 });
      // The slot frees one window after its release: a grant before that needed the release first.
      const next = remote.acquire('op', [limit]);
      expect(outcomes).toEqual([]); // posted, not yet delivered
      // Delivered when the channel delivers it (one tick on an idle machine, later on a busy one).
      await arrived;
      expect(outcomes).toEqual([{ route: 'op /x', status: 200 }]);
      await clock.advance(100);
      expect((await next).ok).toBe(true);
    });
  });

  it('gives each worker its own answers, and answers whether a 429 may be retried', async () => {
    await served(async (local, name) => {
      const workers = [new ChannelScheduler(name), new ChannelScheduler(name)];
      const grants = await Promise.all(workers.map((w, i) => w.acquire(`op${i}`, [limit])));
      const tokens = grants.map((g) => (g.ok ? g.token : undefined));
      expect(new Set(tokens).size).toBe(2);
      expect(await workers[1]!.mayRetry()).toBe(true);
      local.breakers.mayRetry = () => false;
      expect(await workers[0]!.mayRetry()).toBe(false);
    });
  });

  it("hands over the runner's response example warnings of an operation", async () => {
    await served(async (_local, name) => {
      const remote = new ChannelScheduler(name);
      const [bad, none] = await Promise.all([
        remote.exampleWarnings('withBadExample'),
        remote.exampleWarnings('other'),
      ]);
      expect(bad).toEqual([
        { code: 'example-invalid', operation: 'withBadExample', pointer: '/p', message: 'bad' },
      ]);
      expect(none).toEqual([]);
      // A schema Ajv cannot compile fails the asking worker's set, as it did in the worker.
      await expect(remote.exampleWarnings('uncompilable')).rejects.toThrow(
        'schema is invalid: data/type must be string',
      );
    });
  });
});
