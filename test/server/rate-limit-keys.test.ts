/**
 * The names of the rate-limit counters a Redis store is asked for: the namespace, the operation,
 * the window and the hashed key, nothing else (the plugin's child stores once put the route's
 * missing method and URL in front: `dataapi:ratelimit:undefinedundefined-...`). The client here
 * records the calls instead of talking to Redis; test/serve/redis.test.ts reads the same names
 * from a real one, test/serve/redis-round-trips.test.ts counts the round trips.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { RedisClient } from 'dataapi/runtime/server';
import { serveTwoWindows, twoWindowModel } from '../serve/two-windows.ts';

/**
 * What the limiter calls on an ioredis client: the script it defines, called with the number of
 * keys, the keys (one per window), then each window's limit and length. Counted in a Map, with
 * the keys of each call; `isCluster` as on ioredis' Cluster.
 */
class RecordingRedis implements RedisClient {
  readonly counts = new Map<string, number>();
  readonly calls: string[][] = [];
  [command: string]: unknown;
  constructor(readonly isCluster = false) {}
  defineCommand(name: string): void {
    this[name] = async (numberOfKeys: number, ...rest: (string | number)[]) => {
      const keys = rest.slice(0, numberOfKeys).map(String);
      this.calls.push(keys);
      return keys.flatMap((key) => {
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
        return [this.counts.get(key)!, 1000];
      });
    };
  }
}

const apps: FastifyInstance[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));

/** A service limited through `redis` (3 per second by default, 100 per minute of its own). */
async function serveWith(redis: RecordingRedis): Promise<string> {
  const model = twoWindowModel(
    'getIpLocation',
    { limit: 3, per: 'second' },
    { limit: 100, per: 'minute' },
  );
  const { app, url } = await serveTwoWindows(model, redis);
  apps.push(app);
  return url;
}

async function statusOf(url: string): Promise<number> {
  const r = await fetch(url);
  await r.arrayBuffer();
  return r.status;
}

describe('rate-limit counters in Redis', () => {
  it('are named dataapi:ratelimit:<operation>:<window ms>:key:<hash>, one per window', async () => {
    const redis = new RecordingRedis();
    const url = await serveWith(redis);
    for (let i = 0; i < 2; i++)
      expect(await statusOf(`${url}/getIpLocation?appkey=secret-key-1`)).toBe(200);
    const names = [...redis.counts.keys()].sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^dataapi:ratelimit:getIpLocation:1000:key:[\w-]{22}$/);
    expect(names[1]).toMatch(/^dataapi:ratelimit:getIpLocation:60000:key:[\w-]{22}$/);
    expect([...redis.counts.values()]).toEqual([2, 2]);
    expect(names.join('\n')).not.toContain('secret-key-1');
    // One call per request, both windows in it, shortest first.
    expect(redis.calls).toEqual([names, names]);
  });

  it('on a Cluster, one call per window (their keys are in different slots), stopping at a refusal', async () => {
    const redis = new RecordingRedis(true);
    const url = await serveWith(redis);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await statusOf(`${url}/getIpLocation?appkey=k`));
    expect(statuses).toEqual([200, 200, 200, 429]); // 3 per second
    expect(redis.calls.map((keys) => keys.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const [second, minute] = [...redis.counts.entries()];
    expect(second).toEqual([expect.stringContaining(':1000:key:'), 4]);
    expect(minute).toEqual([expect.stringContaining(':60000:key:'), 3]); // the refused one: not
  });
});
