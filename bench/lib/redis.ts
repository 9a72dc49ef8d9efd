/**
 * A real redis-server (Debian's package) on a free port of 127.0.0.1, without persistence,
 * stopped by its own process id: for the serve benchmark and the serve tests (test/serve/redis.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort, startServer, type RunningServer } from './servers.ts';

/** REDIS_SERVER_PATH (even a wrong one: how a missing server is simulated), else /usr/bin or PATH. */
export function findRedisServer(): string | undefined {
  if (process.env.REDIS_SERVER_PATH)
    return existsSync(process.env.REDIS_SERVER_PATH) ? process.env.REDIS_SERVER_PATH : undefined;
  for (const dir of ['/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter)]) {
    if (!dir) continue;
    const file = path.join(dir, 'redis-server');
    if (existsSync(file)) return file;
  }
  return undefined;
}

export type RunningRedis = RunningServer & { port: number };

/** Starts redis-server on a free port (retrying if another process takes the port first). */
export async function startRedis(binary: string): Promise<RunningRedis> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      const server = await startServer(
        'redis-server',
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          cwd: process.cwd(),
          ready: /ready to accept connections/i,
          url: `redis://127.0.0.1:${port}`,
          timeoutMs: 10_000,
        },
      );
      return { ...server, port };
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
