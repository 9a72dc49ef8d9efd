/**
 * `dataapi serve` as a real process on 127.0.0.1 and a free port: started through bin/dataapi.js,
 * ready once it prints its address, stopped with a signal by its own process id.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(ROOT, 'test/serve/fixtures');

export interface ServeProcess {
  url: string;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with stdout's JSON log lines once `done` holds for them (checked on each write). */
  untilLog(done: (lines: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** `dataapi serve ARGS` as a child process, with no keys or Redis from the caller's environment. */
function spawnServe(args: string[], env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ['bin/dataapi.js', 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATAAPI_KEYS: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `dataapi serve` to completion (for start-up refusals): exit code and output. */
export function runServe(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnServe(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // A safety net against a hung child, not a performance limit.
    const timer = setTimeout(() => child.kill('SIGTERM'), 300_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `dataapi serve --port 0` with the arguments; resolves once it listens. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawnServe(['--port', '0', '--host', '127.0.0.1', ...args], env);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    for (const check of [...waiters]) check();
  });
  const untilLog = (done: (lines: Record<string, unknown>[]) => boolean) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const check = () => {
        // Only whole lines: a write can end mid-line.
        const lines = logLines(stdout.slice(0, stdout.lastIndexOf('\n') + 1));
        if (!done(lines)) return;
        waiters.delete(check);
        resolve(lines);
      };
      waiters.add(check);
      void exited.then(() => {
        if (!waiters.delete(check)) return;
        reject(new Error(`serve exited before the log line came:\n${stdout.slice(-2000)}`));
      });
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${stderr}\n${stdout.slice(-2000)}`));
    }, 300_000); // a safety net against a hung child, not a performance limit
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (!m?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        pid: child.pid!,
        stdout: () => stdout,
        stderr: () => stderr,
        untilLog,
        exited,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(`serve exited (${code}) before listening:\n${stderr}\n${stdout.slice(-2000)}`),
      );
    });
  });
}

/** The JSON log lines a serve process wrote. */
export function logLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
