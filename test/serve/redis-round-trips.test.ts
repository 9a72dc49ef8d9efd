/**
 * Redis-backed limits cost one round trip per request whatever the number of windows: the client
 * of a service on a two-window route is watched (every command it sends is recorded) and so is
 * the server (INFO commandstats), against a real redis-server started here on a free port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { normalise } from '../../generator/normalise/index.ts';
import { registerService } from 'dataapi/runtime/server';
import { redisServerOrFail, startRedis, type RunningRedis } from './redis.ts';

const redisServer = redisServerOrFail();

/** One operation with two windows: 50 per second (the default) and 3 per minute (its own). */
const doc = {
  openapi: '3.1.0',
  info: { title: 'round trips', version: '1' },
  'x-dataapi-rate-limit': { limit: 50, per: 'second' },
  paths: {
    '/two': {
      get: {
        operationId: 'two',
        'x-dataapi-rate-limit': { limit: 3, per: 'minute' },
        security: [{ key: [] }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'appkey' } } },
};

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
      app = Fastify();
      await registerService(app, {
        model: normalise({ file: 'two.json', locate: () => undefined, document: doc }),
        handlers: { two: async () => ({}) },
        insecureAnyKey: true,
        rateLimit: { redis: client },
      });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
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
      expect(statuses).toEqual([200, 200, 200, 429, 429]); // the minute's window: 3
      expect(sent).toEqual(['evalsha', 'evalsha', 'evalsha', 'evalsha', 'evalsha']);
      const calls = await commandCalls(admin);
      expect((calls.get('evalsha') ?? 0) + (calls.get('eval') ?? 0)).toBe(5);
      // Inside those five scripts, both windows were counted every time.
      expect(calls.get('incr')).toBe(10);
      // Its counters keep their names: operation, window, hashed key; 5 requests of `k` a minute.
      const minute = (await admin.keys('dataapi:ratelimit:two:60000:key:*')).sort();
      const second = await admin.keys('dataapi:ratelimit:two:1000:key:*');
      expect([minute.length, second.length]).toEqual([2, 2]);
      expect((await admin.mget(minute)).sort()).toEqual(['1', '5']);
    });
  },
);
