/**
 * Rate limits counted in the process (no Redis): over a window's limit a request gets 429 with
 * Retry-After, the seconds left in the window that refused it, whichever of the route's two.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { normalise } from '../../generator/normalise/index.ts';
import { registerService } from 'dataapi/runtime/server';

type Window = { limit: number; per: 'second' | 'minute' };

/** One operation with the default window and its own. */
const docOf = (byDefault: Window, own: Window) => ({
  openapi: '3.1.0',
  info: { title: 'memory', version: '1' },
  'x-dataapi-rate-limit': byDefault,
  paths: {
    '/m': {
      get: {
        operationId: 'm',
        'x-dataapi-rate-limit': own,
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
});

const apps: FastifyInstance[] = [];
afterAll(() => Promise.all(apps.map((a) => a.close())));

/** Sends `n` requests one after another; resolves with the statuses and the last Retry-After. */
async function run(byDefault: Window, own: Window, n: number, method = () => 'GET') {
  const app = Fastify();
  apps.push(app);
  await registerService(app, {
    model: normalise({
      file: 'memory.json',
      locate: () => undefined,
      document: docOf(byDefault, own),
    }),
    handlers: { m: async () => ({}) },
    insecureAnyKey: true,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const statuses: number[] = [];
  let retryAfter: string | null = null;
  for (let i = 0; i < n; i++) {
    const m = method();
    const r = await fetch(`${url}/m?appkey=k`, { method: m });
    statuses.push(r.status);
    const body = await r.text();
    if (r.status === 429) {
      retryAfter = r.headers.get('retry-after');
      if (m === 'GET') expect(body).toMatch(/Rate limit exceeded: \d+ per (second|minute)/);
    }
  }
  return { statuses, retryAfter };
}

describe('rate limits in memory', () => {
  it('the one-second window refuses past its limit: 429, Retry-After 1', async () => {
    const { statuses, retryAfter } = await run(
      { limit: 3, per: 'second' },
      { limit: 100, per: 'minute' },
      4,
    );
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(retryAfter).toBe('1');
  });

  it("the minute's window refuses past its limit: Retry-After up to 60", async () => {
    const { statuses, retryAfter } = await run(
      { limit: 100, per: 'second' },
      { limit: 2, per: 'minute' },
      3,
    );
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(50);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  });

  it('a GET and the HEAD its route answers count apart', async () => {
    let i = 0;
    const { statuses } = await run(
      { limit: 100, per: 'second' },
      { limit: 2, per: 'minute' },
      6,
      () => (i++ % 2 === 0 ? 'GET' : 'HEAD'),
    );
    // GET, HEAD, GET, HEAD: two of each allowed; the third of each refused.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
