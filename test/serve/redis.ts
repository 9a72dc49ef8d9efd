/**
 * Which redis-server the tests use (Debian's package); it is started by bench/lib/redis.ts, which
 * the serve benchmark shares. CI must have one (.ci/run installs it with apt-get): there a missing
 * redis-server is an error, not a skip.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function findRedisServer(): string | undefined {
  if (process.env.REDIS_SERVER_PATH)
    return existsSync(process.env.REDIS_SERVER_PATH) ? process.env.REDIS_SERVER_PATH : undefined;
  for (const dir of ['/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter)].filter(
    Boolean,
  )) {
    const file = path.join(dir, 'redis-server');
    if (existsSync(file)) return file;
  }
  return undefined;
}

export const onCI = Boolean(process.env.CI) && !/^(0|false)$/i.test(process.env.CI ?? '');

/** The redis-server to use, or undefined (a skip) locally; throws under CI when there is none. */
export function redisServerOrFail(): string | undefined {
  const found = findRedisServer();
  if (!found && onCI) {
    throw new Error(
      'CI is set but no redis-server was found (/usr/bin/redis-server or on PATH): .ci/run installs it with apt-get',
    );
  }
  return found;
}

export { startRedis, type RunningRedis } from '../../bench/lib/redis.ts';
