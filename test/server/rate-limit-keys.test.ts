/**
 * The names of the rate-limit counters a Redis store is asked for: the namespace, the operation,
 * the window and the hashed key, nothing else (the plugin's child stores once put the route's
 * missing method and URL in front: `dataapi:ratelimit:undefinedundefined-...`). The client here
 * records the commands instead of talking to Redis; test/serve/redis.test.ts reads the same names
 * from a real one.
 */
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { normalise } from '../../generator/normalise/index.ts';
import { registerService, type RedisClient } from 'dataapi/runtime/server';

type Callback = (err: Error | null, result: [number, number]) => void;

/** What @fastify/rate-limit's Redis store calls: its two Lua commands, counted in a Map. */
class RecordingRedis implements RedisClient {
  readonly counts = new Map<string, number>();
  [command: string]: unknown;
  defineCommand(name: string): void {
    this[name] = (key: string, ...rest: unknown[]) => {
      const done = rest[rest.length - 1] as Callback;
      if (name === 'rateLimit') this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      done(null, [this.counts.get(key) ?? 0, 1000]);
    };
  }
}

const doc = {
  openapi: '3.1.0',
  info: { title: 'keys', version: '1' },
  'x-dataapi-rate-limit': { limit: 3, per: 'second' },
  paths: {
    '/ip': {
      get: {
        operationId: 'getIpLocation',
        'x-dataapi-rate-limit': { limit: 100, per: 'minute' },
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

const app = Fastify();
afterAll(() => app.close());

describe('rate-limit counters in Redis', () => {
  it('are named dataapi:ratelimit:<operation>:<window ms>:key:<hash>, one per window', async () => {
    const redis = new RecordingRedis();
    await registerService(app, {
      model: normalise({ file: 'keys.json', locate: () => undefined, document: doc }),
      handlers: { getIpLocation: async () => ({}) },
      insecureAnyKey: true,
      rateLimit: { redis },
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${url}/ip?appkey=secret-key-1`);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
    const names = [...redis.counts.keys()].sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^dataapi:ratelimit:getIpLocation:1000:key:[\w-]{22}$/);
    expect(names[1]).toMatch(/^dataapi:ratelimit:getIpLocation:60000:key:[\w-]{22}$/);
    expect([...redis.counts.values()]).toEqual([2, 2]);
    expect(names.join('\n')).not.toContain('secret-key-1');
  });
});
