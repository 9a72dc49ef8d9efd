/**
 * Request scheduling that keeps each operation under its declared rate limit and the run under its
 * request budget. The runner owns one `LocalScheduler` and serves it over loopback HTTP, so every
 * vitest worker (one file per operation, but the async lifecycle also polls its partner operation)
 * draws from the same windows; without the runner each file uses its own LocalScheduler.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RateLimit } from 'dataapi/model';
import { Breakers, type Outcome } from './breakers.ts';

export type { Outcome } from './breakers.ts';

export type Grant = { ok: true; token: number } | { ok: false; reason: string };

export interface Scheduler {
  /**
   * Resolves when a request of this operation may be sent now, under every window of `limits`
   * (the operation's `rateLimits`), or is refused (the budget, or a route that stopped
   * answering: `route` is the request's path).
   */
  acquire(key: string, limits: RateLimit[], route?: string): Promise<Grant>;
  /**
   * Marks a granted request as answered (or failed): its slot frees one window after this. The
   * outcome feeds the run's breakers (breakers.ts).
   */
  release(key: string, token: number, outcome?: Outcome): Promise<void> | void;
  /** Whether a 429 may be retried: false once the 429 breaker is open or the retry budget spent. */
  mayRetry(): Promise<boolean> | boolean;
}

/** A slot whose release never came (a worker died) frees this long after its grant. */
const LEASE_MS = 120_000;

/** A granted request: when, and when its answer came (Infinity while in flight). */
interface Slot {
  granted: number;
  done: number;
}

/**
 * Sliding window per key, counted from completion: a request holds its slot while in flight and
 * for one window after its response arrived. A request reaches the target before its response
 * comes back, so any `limit + 1` consecutive arrivals at the target span at least one window,
 * whatever the latency; timing from the send instead lets a slow request and a fast one land
 * closer together than the window (seen: 6 arrivals in 978 ms against 5 per second).
 */
export class LocalScheduler implements Scheduler {
  /** key -> token -> its slot. */
  private slots = new Map<string, Map<number, Slot>>();
  private queues = new Map<string, Promise<unknown>>();
  private used = 0;
  private seq = 0;

  constructor(
    private budget?: number,
    /** Extra time per window for clock granularity (default 10 ms). */
    private marginMs = 10,
    readonly breakers = new Breakers(),
  ) {}

  get requests(): number {
    return this.used;
  }

  get exhausted(): boolean {
    return this.budget !== undefined && this.used >= this.budget;
  }

  acquire(key: string, limits: RateLimit[], route?: string): Promise<Grant> {
    // Serialise per key so grants leave in order and the window arithmetic stays exact.
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.grant(key, limits, route ?? key));
    this.queues.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  release(key: string, token: number, outcome?: Outcome): void {
    const slot = this.slots.get(key)?.get(token);
    if (slot && slot.done === Infinity) slot.done = performance.now();
    if (outcome) this.breakers.observe(key, outcome);
  }

  mayRetry(): boolean {
    return this.breakers.mayRetry();
  }

  private async grant(key: string, limits: RateLimit[], route: string): Promise<Grant> {
    if (this.exhausted) return { ok: false, reason: `request budget of ${this.budget} exhausted` };
    const refused = this.breakers.refusal(route);
    if (refused) return { ok: false, reason: refused };
    const slots = this.slots.get(key) ?? new Map<number, Slot>();
    this.slots.set(key, slots);
    for (;;) {
      const wait = this.waitFor(slots, limits);
      if (wait === 0) break;
      await new Promise((r) => setTimeout(r, Math.max(1, Math.ceil(wait))));
    }
    if (this.exhausted) return { ok: false, reason: `request budget of ${this.budget} exhausted` };
    const token = ++this.seq;
    slots.set(token, { granted: performance.now(), done: Infinity });
    this.used++;
    return { ok: true, token };
  }

  /**
   * How long until every window has a free slot (0: now). Slots older than the longest window
   * are dropped; an in-flight slot may be released any time, so the wait is at most 25 ms then.
   */
  private waitFor(slots: Map<number, Slot>, limits: RateLimit[]): number {
    const now = performance.now();
    const since = (slot: Slot) => now - Math.min(slot.done, slot.granted + LEASE_MS);
    const longest = Math.max(0, ...limits.map((l) => l.windowMs)) + this.marginMs;
    for (const [token, slot] of slots) if (since(slot) >= longest) slots.delete(token);
    let wait = 0;
    for (const limit of limits) {
      const window = limit.windowMs + this.marginMs;
      const held = [...slots.values()].filter((slot) => since(slot) < window);
      if (held.length < Math.max(1, limit.limit)) continue;
      let free = 25;
      for (const slot of held)
        if (slot.done !== Infinity) free = Math.min(free, window - since(slot));
      wait = Math.max(wait, free);
    }
    return wait;
  }
}

/**
 * Serves a LocalScheduler on 127.0.0.1 for the workers: POST /acquire {key, limits},
 * POST /release {key, token, outcome}, POST /retry.
 */
export async function serveScheduler(
  scheduler: LocalScheduler,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      type Input = {
        key: string;
        limits: RateLimit[];
        token?: number;
        outcome?: Outcome;
        route?: string;
      };
      let input: Input;
      try {
        input = JSON.parse(text) as Input;
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (req.url === '/release') {
        scheduler.release(input.key, Number(input.token), input.outcome);
        res.writeHead(204).end();
        return;
      }
      if (req.url === '/retry') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(scheduler.mayRetry()));
        return;
      }
      void scheduler.acquire(input.key, input.limits, input.route).then((grant) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(grant));
      });
    });
  });
  // A grant can wait out a whole window (a minute for 100/minute): no socket timeouts here.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  // Idle keep-alive sockets stay open until close(): a server that closes one while a busy worker's
  // fetch reuses it makes that fetch fail ("fetch failed", the test errors outside any check).
  server.keepAliveTimeout = 0;
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

  async acquire(key: string, limits: RateLimit[], route?: string): Promise<Grant> {
    const res = await fetch(`${this.url}/acquire`, {
      method: 'POST',
      body: JSON.stringify({ key, limits, route }),
    });
    return (await res.json()) as Grant;
  }

  async release(key: string, token: number, outcome?: Outcome): Promise<void> {
    await fetch(`${this.url}/release`, {
      method: 'POST',
      body: JSON.stringify({ key, token, outcome }),
    });
  }

  async mayRetry(): Promise<boolean> {
    const res = await fetch(`${this.url}/retry`, { method: 'POST', body: '{}' });
    return (await res.json()) === true;
  }
}
