/**
 * A real redis-server (Debian's package) for the tests, on a free port of 127.0.0.1, without
 * persistence, stopped by its own process id. CI must have one (.ci/run installs it with apt-get):
 * there a missing redis-server is an error, not a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function startOnce(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on ${port}: ${out.slice(-500)}`));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) on port ${port}: ${out.slice(-500)}`));
    });
  });
}

/** Starts redis-server on a free port (retrying if another process takes the port first). */
export async function startRedis(binary: string): Promise<RunningRedis> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      const child = await startOnce(binary, port);
      child.removeAllListeners('exit');
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
