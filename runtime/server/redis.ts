/**
 * The Redis connection of a deployment's shared rate limits. It fails fast instead of queueing:
 * with Redis down a command errors at once (the limiter then fails open or closed, as configured)
 * rather than holding the request, and the client keeps reconnecting in the background. Its
 * errors are logged (at most every 30 s), never thrown at the process: a lost Redis is no crash.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { throttledLog } from './log.ts';

export interface RedisConnection {
  client: Redis;
  /** Where it connects, without credentials (safe to log). */
  where: string;
  /** True when Redis answers a PING within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** `redis://user:secret@host:6380/2` -> `host:6380/2` (credentials never reach a log). */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return '(unparsable Redis URL)';
  }
}

export function connectRedis(url: string, log: FastifyBaseLogger): RedisConnection {
  const where = redisWhere(url);
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    // Reconnect quickly at first, then every 2 s at most, for as long as the process runs.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  const warn = throttledLog(30_000);
  client.on('error', (err: Error) => warn(log, `Redis at ${where}: ${err.message}`));
  client.on('ready', () => log.info(`Redis at ${where} connected`));
  return {
    client,
    where,
    async ping(timeoutMs = 1000) {
      if (client.status !== 'ready') return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        return await Promise.race([client.ping().then((r) => r === 'PONG'), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}

/** Resolves once the client is connected, or after `timeoutMs` (false): start-up does not hang. */
export function whenReady(connection: RedisConnection, timeoutMs: number): Promise<boolean> {
  const { client } = connection;
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on('ready', onReady);
  });
}
