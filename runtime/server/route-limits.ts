/**
 * Rate limits as a route behaviour: per key (or, without one, per client address) and per
 * operation, in every window the route has (air quality: 5 per second and 100 per minute). With a
 * Redis client the counts live in Redis, every window in one round trip (redis-limits.ts), so the
 * limit holds across instances; otherwise @fastify/rate-limit counts them in this process. Over a
 * limit: 429 with Retry-After (whole seconds until the window ends) and the group's rate-limited
 * code. When the store fails (Redis unreachable), the request goes through ('open', the default)
 * or is answered 503 ('closed'), with a log line.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { WINDOW_MS, type RateLimit } from 'dataapi/model';
import { HttpError } from './errors.ts';
import { appendHook, contextOf, onOperationRoute } from './route-context.ts';
import { acceptedKey } from './route-auth.ts';
import { throttledLog } from './log.ts';
import { redisCounter, type RedisClient } from './redis-limits.ts';

export type { RedisClient } from './redis-limits.ts';

export interface RateLimitOptions {
  /** An ioredis client: counts are kept in Redis and shared by every instance using it. */
  redis?: RedisClient;
  /**
   * What a request gets when the store cannot answer (Redis down or slow): 'open' (default) lets
   * it through, 'closed' answers 503. Either way a warning is logged (at most every 30 s).
   */
  onStoreError?: 'open' | 'closed';
  /** Prefix of the Redis keys (default `dataapi:ratelimit:`). */
  nameSpace?: string;
  /** Overrides every operation's limit (tests, load runs). */
  override?: { limit: number; windowMs: number };
}

/** Buckets kept in memory per window of each route (least recently used ones go first). */
const LOCAL_BUCKETS = 50_000;

/** Who a request counts for: its key (hashed: Redis is no place for secrets) or its address. */
function who(request: FastifyRequest): string {
  const key = acceptedKey(request);
  if (key === undefined) return `ip:${request.ip}`;
  return `key:${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;
}

function limitText(w: RateLimit): string {
  return `${w.limit} per ${WINDOW_MS[w.per] === w.windowMs ? w.per : `${w.windowMs} ms`}`;
}

/** The window a request exceeded and how long until it ends, or undefined: it may go on. */
type Check = (request: FastifyRequest) => Promise<{ w: RateLimit; ttlMs: number } | undefined>;

/** Counts in this process: one @fastify/rate-limit limiter per window, shortest first. */
function memoryCheck(app: FastifyInstance, bucket: string, windows: RateLimit[]): Check {
  // Made on the route's first request: each limiter has a store of its own, empty until then
  // either way, and a large description's start does not make thousands of them.
  // A GET's route also answers HEAD (head.ts): each method counts apart, as when HEAD had a
  // route of its own.
  const limiters = new Map<
    string,
    { w: RateLimit; check: ReturnType<FastifyInstance['createRateLimit']> }[]
  >();
  const made = () =>
    windows.map((w) => {
      const prefix = `${bucket}:${w.windowMs}:`;
      const check = app.createRateLimit({
        max: w.limit,
        timeWindow: w.windowMs,
        keyGenerator: (request) => prefix + who(request),
      });
      return { w, check };
    });
  return async (request) => {
    let mine = limiters.get(request.method);
    if (!mine) limiters.set(request.method, (mine = made()));
    // A request the shorter window refuses is not counted against the longer ones.
    for (const { w, check } of mine) {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) return { w, ttlMs: result.ttl };
    }
    return undefined;
  };
}

/** Counts in Redis, as `<namespace><operation>:<window ms>:<who>`, all windows in one call. */
function redisCheck(
  counterFor: ReturnType<typeof redisCounter>,
  nameSpace: string,
  bucket: string,
  windows: RateLimit[],
): Check {
  const count = counterFor(windows);
  const prefixes = windows.map((w) => `${nameSpace}${bucket}:${w.windowMs}:`);
  return async (request) => {
    const id = who(request);
    const counts = await count(prefixes.map((p) => p + id));
    const i = counts.findIndex((c, j) => c.current > windows[j]!.limit);
    return i < 0 ? undefined : { w: windows[i]!, ttlMs: counts[i]!.ttlMs };
  };
}

/** Adds the limits to every operation route registered later. */
export async function installRateLimits(
  app: FastifyInstance,
  options: RateLimitOptions,
): Promise<void> {
  const counter = options.redis ? redisCounter(options.redis) : undefined;
  const nameSpace = options.nameSpace ?? 'dataapi:ratelimit:';
  if (!counter)
    await app.register(rateLimit, { global: false, skipOnError: false, cache: LOCAL_BUCKETS });
  const failClosed = options.onStoreError === 'closed';
  const warn = throttledLog(30_000);
  onOperationRoute(app, (routeOptions) => {
    const ctx = contextOf(routeOptions);
    if (!ctx) return;
    // An override is one window in place of the declared ones (two overridden windows of one
    // length would share a bucket and count each request twice).
    const windows = options.override ? [{ ...ctx.windows[0]!, ...options.override }] : ctx.windows;
    if (windows.length === 0) return;
    const check = counter
      ? redisCheck(counter, nameSpace, ctx.bucket, windows)
      : memoryCheck(app, ctx.bucket, windows);
    appendHook(routeOptions, 'preValidation', async (request) => {
      let exceeded: Awaited<ReturnType<Check>>;
      try {
        exceeded = await check(request);
      } catch (err) {
        const verdict = failClosed ? 'closed: 503' : 'open';
        warn(
          request.log,
          `rate-limit store failed (${(err as Error).message}); failing ${verdict}`,
        );
        if (!failClosed) return;
        throw new HttpError(503, 'Rate limiting is unavailable; retry later', {
          outcome: 'service_error',
          headers: { 'retry-after': '1' },
        });
      }
      if (exceeded) {
        const seconds = Math.max(1, Math.ceil(exceeded.ttlMs / 1000));
        throw new HttpError(429, `Rate limit exceeded: ${limitText(exceeded.w)}`, {
          outcome: 'rate_limited',
          headers: { 'retry-after': String(seconds) },
        });
      }
    });
  });
}
