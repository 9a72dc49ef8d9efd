/**
 * Request scheduling that keeps each operation under its declared rate limit and the run under its
 * request budget. The runner owns one `LocalScheduler` and serves it over loopback HTTP, so every
 * vitest worker (one file per operation, but the async lifecycle also polls its partner operation)
 * draws from the same windows; without the runner each file uses its own LocalScheduler.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RateLimit } from 'dataapi/model';
import { Breakers, type Outcome } from './breakers.ts';
import {
  monotonicClock,
  PACING_MARGIN_MS,
  SlidingWindowPacer,
  type Clock,
} from 'dataapi/runtime/shared';

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

/**
 * The operation's windows, paced by the shared sliding-window pacer (runtime/shared/pacing.ts):
 * a request holds its slot while in flight and for one window after its answer arrived, so any
 * `limit + 1` consecutive arrivals at the target span at least one window, whatever the latency
 * (timing from the send instead let 6 arrivals land in 978 ms against 5 per second).
 */
export class LocalScheduler implements Scheduler {
  /** key -> the pacer of its windows (the limits given with its first request). */
  private pacers = new Map<string, SlidingWindowPacer>();
  /** key -> token -> the release of its slots. */
  private held = new Map<string, Map<number, () => void>>();
  private queues = new Map<string, Promise<unknown>>();
  private used = 0;
  private seq = 0;

  constructor(
    private budget?: number,
    /** Extra time per window (default PACING_MARGIN_MS, the client's too). */
    private marginMs = PACING_MARGIN_MS,
    readonly breakers = new Breakers(),
    /** Where time is read and waited for (tests give a fake one). */
    private clock: Clock = monotonicClock,
  ) {}

  get requests(): number {
    return this.used;
  }

  get exhausted(): boolean {
    return this.budget !== undefined && this.used >= this.budget;
  }

  acquire(key: string, limits: RateLimit[], route?: string): Promise<Grant> {
    // Serialise per key so the budget and breakers are asked in order, after the previous grant.
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(() => this.grant(key, limits, route ?? key));
    this.queues.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  release(key: string, token: number, outcome?: Outcome): void {
    const held = this.held.get(key);
    held?.get(token)?.();
    held?.delete(token);
    if (outcome) this.breakers.observe(key, outcome);
  }

  mayRetry(): boolean {
    return this.breakers.mayRetry();
  }

  private pacerOf(key: string, limits: RateLimit[]): SlidingWindowPacer {
    let pacer = this.pacers.get(key);
    if (!pacer) {
      const windows = limits.map((l) => ({ limit: Math.max(1, l.limit), windowMs: l.windowMs }));
      pacer = new SlidingWindowPacer(windows, {
        marginMs: this.marginMs,
        clock: this.clock,
        leaseMs: LEASE_MS,
      });
      this.pacers.set(key, pacer);
    }
    return pacer;
  }

  private async grant(key: string, limits: RateLimit[], route: string): Promise<Grant> {
    if (this.exhausted) return { ok: false, reason: `request budget of ${this.budget} exhausted` };
    const refused = this.breakers.refusal(route);
    if (refused) return { ok: false, reason: refused };
    const release = await this.pacerOf(key, limits).acquire();
    if (this.exhausted) {
      release();
      return { ok: false, reason: `request budget of ${this.budget} exhausted` };
    }
    const token = ++this.seq;
    const held = this.held.get(key) ?? new Map<number, () => void>();
    this.held.set(key, held);
    held.set(token, release);
    this.used++;
    return { ok: true, token };
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

/**
 * The workers' side: asks the runner's scheduler over kept-alive loopback connections (node:http:
 * a quarter of fetch's cost per call, which counts when fuzzing sends thousands of requests).
 */
export class RemoteScheduler implements Scheduler {
  /**
   * An acquire is held open until its slot is granted, so it needs a socket of its own while it
   * waits; releases and retry questions have their own sockets, never queued behind waiting
   * acquires (sharing eight sockets, eight waiting acquires held back the releases that would
   * have granted them: slots freed only by their 120 s lease).
   */
  private grants = new Agent({ keepAlive: true });
  private calls = new Agent({ keepAlive: true });
  private target: URL;

  constructor(url: string) {
    this.target = new URL(url);
  }

  private post(path: string, body: unknown): Promise<string> {
    const text = JSON.stringify(body);
    const agent = path === '/acquire' ? this.grants : this.calls;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.target.hostname,
          port: this.target.port,
          path,
          method: 'POST',
          agent,
          headers: { 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          let out = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (out += c));
          res.on('end', () => resolve(out));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  }

  async acquire(key: string, limits: RateLimit[], route?: string): Promise<Grant> {
    return JSON.parse(await this.post('/acquire', { key, limits, route })) as Grant;
  }

  async release(key: string, token: number, outcome?: Outcome): Promise<void> {
    await this.post('/release', { key, token, outcome });
  }

  async mayRetry(): Promise<boolean> {
    return JSON.parse(await this.post('/retry', {})) === true;
  }
}
