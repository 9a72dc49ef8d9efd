/**
 * Redis-backed limits cost one round trip per request whatever the number of windows: the client
 * of a service on a two-window route is watched (every command it sends is recorded) and so is
 * the server (INFO commandstats), against a real redis-server started here on a free port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { redisServerOrFail, startRedis, type RunningRedis } from './redis.ts';
import { serveTwoWindows, twoWindowModel } from './two-windows.ts';

const redisServer = redisServerOrFail();

/** `calls` of each command in INFO commandstats (`cmdstat_evalsha:calls=3,...`). */
async function commandCalls(admin: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const m of (await admin.info('commandstats')).matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
    calls.set(m[1]!, Number(m[2]));
  return calls;
}

describe.skipIf(!redisServer)(
  `Redis round trips${redisServer ? '' : ' (skipped locally: no redis-server; CI fails instead)'}`,
  () => {
    let redis: RunningRedis;
    let app: FastifyInstance;
    let client: Redis;
    let admin: Redis;
    let url: string;
    const sent: string[] = [];
    beforeAll(async () => {
      redis = await startRedis(redisServer!);
      client = new Redis(redis.url);
      admin = new Redis(redis.url);
      // Every command the service's client writes to Redis: each one is a round trip.
      const send = client.sendCommand.bind(client);
      client.sendCommand = ((command: { name: string }, stream?: unknown) => {
        sent.push(command.name);
        return send(command as never, stream as never);
      }) as typeof client.sendCommand;
      // 50 per minute (the default) and 3 per hour (its own): windows long enough that no counter
      // expires while the test runs, however slow the machine (a second's window did).
      const model = twoWindowModel('two', { limit: 50, per: 'minute' }, { limit: 3, per: 'hour' });
      ({ app, url } = await serveTwoWindows(model, client));
    });
    afterAll(async () => {
      await app?.close();
      client?.disconnect();
      admin?.disconnect();
      await redis?.stop();
    });

    it('counts both windows of a request in one command, allowed or refused', async () => {
      // The first request of a connection sends the script itself (EVAL), the next ones its SHA.
      await (await fetch(`${url}/two?appkey=warm-up`)).arrayBuffer();
      sent.length = 0;
      await admin.config('RESETSTAT');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${url}/two?appkey=k`);
        await r.arrayBuffer();
        statuses.push(r.status);
        if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(50);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]); // the hour's window: 3
      expect(sent).toEqual(['evalsha', 'evalsha', 'evalsha', 'evalsha', 'evalsha']);
      const calls = await commandCalls(admin);
      expect((calls.get('evalsha') ?? 0) + (calls.get('eval') ?? 0)).toBe(5);
      // Inside those five scripts, both windows were counted every time.
      expect(calls.get('incr')).toBe(10);
      // Its counters keep their names: operation, window, hashed key; 5 requests of `k` an hour.
      const hour = (await admin.keys('dataapi:ratelimit:two:3600000:key:*')).sort();
      const minute = (await admin.keys('dataapi:ratelimit:two:60000:key:*')).sort();
      expect([hour.length, minute.length]).toEqual([2, 2]);
      expect((await admin.mget(hour)).sort()).toEqual(['1', '5']);
      expect((await admin.mget(minute)).sort()).toEqual(['1', '5']);
    });
  },
);
