/**
 * Rate limits shared through a real Redis (Debian's redis-server, started here on a free port):
 * two `serve` processes behind one Redis let a burst through no more than the declared limit
 * (and, as a control, two processes without Redis let through twice as much); both windows of
 * an operation hold; a Redis that goes away makes /readyz say so and the limiter fail open or
 * closed as configured, never crash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { readEnvelope } from 'dataapi/runtime/shared';
import { model } from '../../generated/model.ts';
import { startServe, type ServeProcess } from './helpers.ts';
import { redisServerOrFail, startRedis, type RunningRedis } from './redis.ts';
import { serveTwoWindows, twoWindowModel } from './two-windows.ts';

const redisServer = redisServerOrFail();
const op = (id: string) => model.operations.find((o) => o.id === id)!;

/** Sends `n` requests at once, alternating between the servers; returns the statuses. */
async function burst(urls: string[], n: number, path: string): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) =>
      fetch(`${urls[i % urls.length]}${path}`).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/**
 * A burst that lands inside one window: a burst that took longer than `windowMs` on a busy
 * machine could rightly be let through twice, so it is sent again (after a window) until one fits.
 */
async function burstInWindow(
  urls: string[],
  n: number,
  path: string,
  windowMs: number,
): Promise<number[]> {
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    const statuses = await burst(urls, n, path);
    if (performance.now() - t0 < windowMs * 0.8 || attempt === 4) return statuses;
    await new Promise((r) => setTimeout(r, windowMs + 100));
  }
}

async function readyz(url: string): Promise<number> {
  const r = await fetch(`${url}/readyz`);
  await r.arrayBuffer();
  return r.status;
}

async function warmUp(urls: string[]): Promise<void> {
  for (const url of urls)
    await (await fetch(`${url}/v2/location/ip?appkey=warm-up&ip=1.1.1.1`)).arrayBuffer();
}

describe.skipIf(!redisServer)(
  `rate limits in Redis${redisServer ? '' : ' (skipped locally: no redis-server; CI fails instead)'}`,
  () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis(redisServer!);
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('two serve processes sharing Redis never let a burst exceed the declared limit', async () => {
      const ip = op('getIpLocation');
      expect(ip.rateLimit).toMatchObject({ limit: 5, per: 'second' });
      const args = [
        '--insecure-any-key',
        '--no-docs',
        '--handlers',
        'test/serve/fixtures/handlers',
      ];
      const shared = await Promise.all([
        startServe([...args, '--redis', redis.url]),
        startServe([...args, '--redis', redis.url]),
      ]);
      const alone = await Promise.all([startServe(args), startServe(args)]);
      try {
        const sharedUrls = shared.map((s) => s.url);
        await warmUp([...sharedUrls, ...alone.map((s) => s.url)]);
        const path = '/v2/location/ip?appkey=burst-key&ip=1.1.1.1';
        const together = await burstInWindow(sharedUrls, 30, path, 1000);
        expect(count(together, 200)).toBe(5);
        expect(count(together, 429)).toBe(25);
        // The control: without Redis each process counts alone, and twice the limit gets through.
        const apart = await burstInWindow(
          alone.map((s) => s.url),
          30,
          path,
          1000,
        );
        expect(count(apart, 200)).toBe(10);
        // Once the window has passed, the shared budget is back, still at the limit.
        await new Promise((r) => setTimeout(r, 1100));
        const again = await burstInWindow(sharedUrls, 30, path, 1000);
        expect(count(again, 200)).toBe(5);
        // Another key has its own budget.
        const other = await burst(
          shared.map((s) => s.url),
          6,
          '/v2/location/ip?appkey=other-key&ip=1.1.1.1',
        );
        expect(count(other, 200)).toBe(5);
        for (const s of shared) expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
      } finally {
        await Promise.all([...shared, ...alone].map((s) => s.stop()));
      }
    });

    it('429 carries Retry-After and the group code; the Redis keys hold no key', async () => {
      const serve = await startServe([
        '--insecure-any-key',
        '--no-docs',
        '--redis',
        redis.url,
        '--handlers',
        'test/serve/fixtures/handlers',
      ]);
      try {
        const ip = op('getIpLocation');
        let last: Response | undefined;
        for (let i = 0; i < 7; i++) {
          last = await fetch(`${serve.url}/v2/location/ip?appkey=secret-key-1&ip=1.1.1.1`);
          if (last.status === 429) break;
          await last.arrayBuffer();
        }
        expect(last?.status).toBe(429);
        expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(readEnvelope(ip, await last!.json()).code).toBe(429); // base group: the status
        const client = new Redis(redis.url);
        try {
          const keys = await client.keys('*');
          expect(keys.some((k) => k.includes('getIpLocation'))).toBe(true);
          // Namespace, operation, window, who: no route fragment (once `undefinedundefined-`).
          for (const k of keys)
            expect(k).toMatch(/^dataapi:ratelimit:getIpLocation:\d+:(key|ip):[\w.:-]+$/);
          expect(keys.join('\n')).not.toContain('secret-key-1');
        } finally {
          client.disconnect();
        }
      } finally {
        await serve.stop();
      }
    });

    it('both windows of an operation hold: its own limit and the default of another window', async () => {
      const windows = twoWindowModel(
        'slow',
        { limit: 3, per: 'second' },
        { limit: 5, per: 'minute' },
      );
      expect(windows.operations[0]?.rateLimit).toMatchObject({ limit: 5, per: 'minute' });
      const apps: FastifyInstance[] = [];
      const clients: Redis[] = [];
      try {
        const urls: string[] = [];
        for (let i = 0; i < 2; i++) {
          const client = new Redis(redis.url);
          clients.push(client);
          const { app, url } = await serveTwoWindows(windows, client);
          apps.push(app);
          urls.push(url);
        }
        const first = await burst(urls, 10, '/slow?appkey=w');
        expect(count(first, 200)).toBe(3); // the second's window
        await new Promise((r) => setTimeout(r, 1100));
        const second = await burst(urls, 10, '/slow?appkey=w');
        expect(count(second, 200)).toBe(2); // the minute's window: 5 in all
        await new Promise((r) => setTimeout(r, 1100));
        const third = await fetch(`${urls[0]}/slow?appkey=w`);
        expect(third.status).toBe(429);
        expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(50);
      } finally {
        await Promise.all(apps.map((a) => a.close()));
        for (const c of clients) c.disconnect();
      }
    });

    it('Redis gone: /readyz says not ready, requests fail open (or closed as asked) with a log line, no crash', async () => {
      const own = await startRedis(redisServer!);
      const args = [
        '--insecure-any-key',
        '--no-docs',
        '--handlers',
        'test/serve/fixtures/handlers',
      ];
      let open: ServeProcess | undefined;
      let closed: ServeProcess | undefined;
      try {
        open = await startServe([...args, '--redis', own.url]);
        closed = await startServe([...args, '--redis', own.url, '--redis-failure', 'closed']);
        const path = '/v2/location/ip?appkey=k&ip=1.1.1.1';
        expect((await fetch(`${open.url}${path}`)).status).toBe(200);
        await own.stop();
        // Waits for the service to notice (its client sees the connection close), not for a time.
        while ((await readyz(open.url)) !== 503) await new Promise((r) => setTimeout(r, 50));
        expect((await fetch(`${open.url}/healthz`)).status).toBe(200);
        expect((await fetch(`${open.url}${path}`)).status).toBe(200);
        const refused = await fetch(`${closed.url}${path}`);
        expect(refused.status).toBe(503);
        expect(readEnvelope(op('getIpLocation'), await refused.json()).code).toBe(503);
        // Each log line is awaited as it is written (no fixed wait): a missing one hangs until
        // the test's safety net, so the lines are found first and checked after.
        const failedOpen = (lines: Record<string, unknown>[]) =>
          lines.some(
            (l) => l.level === 40 && /rate-limit store failed.*failing open/.test(String(l.msg)),
          );
        const failedClosed = (lines: Record<string, unknown>[]) =>
          lines.some((l) => /failing closed/.test(String(l.msg)));
        expect(failedOpen(await open.untilLog(failedOpen))).toBe(true);
        expect(failedClosed(await closed.untilLog(failedClosed))).toBe(true);
      } finally {
        await own.stop();
        expect(await open?.stop()).toBe(0);
        expect(await closed?.stop()).toBe(0);
      }
    });
  },
);
