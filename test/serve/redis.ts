/**
 * Which redis-server the tests use (Debian's package); it is started by bench/lib/redis.ts, which
 * the serve benchmark shares. CI must have one (.ci/run installs it with apt-get): there a missing
 * redis-server is an error, not a skip.
 */
import { findRedisServer } from '../../bench/lib/redis.ts';

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

export { findRedisServer, startRedis, type RunningRedis } from '../../bench/lib/redis.ts';
