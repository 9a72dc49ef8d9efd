/**
 * Request scheduling that keeps each operation under its declared rate limit and the run under its
 * request budget. The runner owns one `LocalScheduler` and serves it over loopback HTTP, so every
 * vitest worker (one file per operation, but the async lifecycle also polls its partner operation)
 * draws from the same windows; without the runner each file uses its own LocalScheduler.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RateLimit } from 'dataapi/model';

export type Grant = { ok: true } | { ok: false; reason: string };

export interface Scheduler {
  /** Resolves when a request of this operation may be sent now (or is refused by the budget). */
  acquire(key: string, limit: RateLimit): Promise<Grant>;
}

/**
 * Sliding window per key: at most `limit` sends in any window of `windowMs` (plus a margin for
 * the time between the grant and the request's arrival at the target).
 */
export class LocalScheduler implements Scheduler {
  private sent = new Map<string, number[]>();
  private queues = new Map<string, Promise<unknown>>();
  private used = 0;

  constructor(
    private budget?: number,
    private marginMs?: number,
  ) {}

  get requests(): number {
    return this.used;
  }

  get exhausted(): boolean {
    return this.budget !== undefined && this.used >= this.budget;
  }

  acquire(key: string, limit: RateLimit): Promise<Grant> {
    // Serialise per key so grants leave in order and the window arithmetic stays exact.
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.grant(key, limit));
    this.queues.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  private async grant(key: string, limit: RateLimit): Promise<Grant> {
    if (this.budget !== undefined && this.used >= this.budget)
      return { ok: false, reason: `request budget of ${this.budget} exhausted` };
    // The margin absorbs the jitter between a grant and the request's arrival at the target.
    const window = limit.windowMs + (this.marginMs ?? Math.max(50, limit.windowMs * 0.05));
    const max = Math.max(1, limit.limit);
    let times = this.sent.get(key) ?? [];
    for (;;) {
      const now = performance.now();
      times = times.filter((t) => now - t < window);
      if (times.length < max) break;
      await new Promise((r) => setTimeout(r, window - (now - times[0]!) + 1));
    }
    if (this.budget !== undefined && this.used >= this.budget)
      return { ok: false, reason: `request budget of ${this.budget} exhausted` };
    times.push(performance.now());
    this.sent.set(key, times);
    this.used++;
    return { ok: true };
  }
}

/** Serves a LocalScheduler on 127.0.0.1 for the workers: POST /acquire {key, limit}. */
export async function serveScheduler(
  scheduler: LocalScheduler,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      let input: { key: string; limit: RateLimit };
      try {
        input = JSON.parse(text) as { key: string; limit: RateLimit };
      } catch {
        res.writeHead(400).end();
        return;
      }
      void scheduler.acquire(input.key, input.limit).then((grant) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(grant));
      });
    });
  });
  // A grant can wait out a whole window (a minute for 100/minute): no socket timeouts here.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The workers' side: asks the runner's scheduler. */
export class RemoteScheduler implements Scheduler {
  constructor(private url: string) {}

  async acquire(key: string, limit: RateLimit): Promise<Grant> {
    const res = await fetch(`${this.url}/acquire`, {
      method: 'POST',
      body: JSON.stringify({ key, limit }),
    });
    return (await res.json()) as Grant;
  }
}
