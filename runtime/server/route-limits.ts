/**
 * Rate limits as a route behaviour, counted by @fastify/rate-limit: per key (or, without one, per
 * client address) and per operation, in every window the route has (air quality: 5 per second
 * and 100 per minute). With a Redis client the counts live in Redis, so the limit holds across
 * instances; otherwise in this process. Over a limit: 429 with Retry-After (whole seconds until
 * the window ends) and the group's rate-limited code. When the store fails (Redis unreachable), the
 * request goes through ('open', the default) or is answered 503 ('closed'), with a log line.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { WINDOW_MS, type RateLimit } from 'dataapi/model';
import { HttpError } from './errors.ts';
import { appendHook, contextOf } from './route-context.ts';
import { acceptedKey } from './route-auth.ts';
import { throttledLog } from './log.ts';

/**
 * An ioredis client (`new Redis(url)`, or a `Cluster`), typed by the one method
 * @fastify/rate-limit calls on it: so the runtime's declarations do not load ioredis' types into
 * every program that imports the server (docs/benchmarks.md, tsc over generated output).
 */
export interface RedisClient {
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
}

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

/**
 * The plugin's own Redis store (its Lua scripts), except for one thing: a limiter made by
 * `createRateLimit` has no route, so the plugin's child store would prefix every key with the
 * route's method and URL, `undefinedundefined-`. Our keys already name the operation and window
 * (`dataapi:ratelimit:getIpLocation:1000:key:...`), so a child store is the store itself.
 */
function redisStore(redis: RedisClient, nameSpace: string): FastifyRateLimitStoreCtor {
  type RedisStoreCtor = new (
    continueExceeding: boolean | undefined,
    exponentialBackoff: boolean | undefined,
    redis: RedisClient,
    key: string,
  ) => FastifyRateLimitStore;
  const RedisStore = createRequire(import.meta.url)(
    '@fastify/rate-limit/store/RedisStore.js',
  ) as RedisStoreCtor;
  return class {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      const store = new RedisStore(
        params.continueExceeding,
        params.exponentialBackoff,
        redis,
        nameSpace,
      );
      store.child = () => store;
      return store;
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

/** Registers @fastify/rate-limit and adds the limits to every operation route registered later. */
export async function installRateLimits(
  app: FastifyInstance,
  options: RateLimitOptions,
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    skipOnError: false,
    cache: LOCAL_BUCKETS,
    ...(options.redis
      ? { store: redisStore(options.redis, options.nameSpace ?? 'dataapi:ratelimit:') }
      : {}),
  });
  const failClosed = options.onStoreError === 'closed';
  const warn = throttledLog(30_000);
  app.addHook('onRoute', (routeOptions) => {
    const ctx = contextOf(routeOptions);
    if (!ctx) return;
    // An override is one window in place of the declared ones (two overridden windows of one
    // length would share a bucket and count each request twice).
    const windows = options.override ? [{ ...ctx.windows[0]!, ...options.override }] : ctx.windows;
    const limiters = windows.map((w) => {
      const prefix = `${ctx.bucket}:${w.windowMs}:`;
      const check = app.createRateLimit({
        max: w.limit,
        timeWindow: w.windowMs,
        keyGenerator: (request) => prefix + who(request),
      });
      return { w, check };
    });
    appendHook(routeOptions, 'preValidation', async (request) => {
      // Shortest window first; a request it refuses is not counted against the longer ones.
      for (const { w, check } of limiters) {
        let result: Awaited<ReturnType<typeof check>>;
        try {
          result = await check(request);
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
        if (!result.isAllowed && result.isExceeded) {
          throw new HttpError(429, `Rate limit exceeded: ${limitText(w)}`, {
            outcome: 'rate_limited',
            headers: { 'retry-after': String(Math.max(1, result.ttlInSeconds)) },
          });
        }
      }
    });
  });
}
