/**
 * Servers under test run in their own processes (never in the load generator's): start one, wait
 * until it answers, read its CPU time from /proc, stop it by its own process id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

export interface RunningServer {
  label: string;
  url: string;
  pid: number;
  /** CPU seconds (user + system) used so far by the server's process tree. */
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
  output(): string;
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

/** CPU seconds of one process and its descendants (Linux /proc; 0 elsewhere). */
export async function treeCpuSeconds(root: number): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  const ticks = 100; // USER_HZ: 100 on every Linux architecture node supports
  let entries: string[] = [];
  try {
    entries = (await readdir('/proc')).filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  const info = new Map<number, { ppid: number; cpu: number }>();
  await Promise.all(
    entries.map(async (e) => {
      const stat = await readFile(`/proc/${e}/stat`, 'utf8').catch(() => '');
      // Fields after the parenthesised command name: state ppid ... utime(14) stime(15)
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest.length < 13) return;
      info.set(Number(e), {
        ppid: Number(rest[1]),
        cpu: (Number(rest[11]) + Number(rest[12])) / ticks,
      });
    }),
  );
  let total = 0;
  for (const [pid, { cpu }] of info) {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && hops < 64; hops++) {
      if (p === root) {
        total += cpu;
        break;
      }
      p = info.get(p)?.ppid;
    }
  }
  return total;
}

export interface StartOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Ready once this URL answers with any HTTP status (its origin is the server's URL). */
  probe?: string;
  /**
   * Ready once the output matches (default `LISTENING <url>`); the first group, when there is
   * one, is the server's URL, else `url`.
   */
  ready?: RegExp;
  url?: string;
  timeoutMs?: number;
}

/**
 * Spawns a server and resolves once `probe` (a URL) answers with any HTTP status, or once the
 * process prints what `ready` matches (`LISTENING <url>` by default).
 */
export async function startServer(
  label: string,
  file: string,
  args: string[],
  options: StartOptions,
): Promise<RunningServer> {
  const child: ChildProcess = spawn(file, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: false,
  });
  let output = '';
  let announced: string | undefined;
  const ready = options.ready ?? /LISTENING (\S+)/;
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-4000);
    const m = ready.exec(output);
    if (m) announced ??= m[1] ?? options.url;
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let url: string | undefined;
  while (Date.now() < deadline && exited === undefined) {
    if (options.probe) {
      const ok = await fetch(options.probe, { signal: AbortSignal.timeout(2000) }).then(
        () => true,
        () => false,
      );
      if (ok) url = new URL(options.probe).origin;
    } else url = announced;
    if (url) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid!;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const closed = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await closed;
    clearTimeout(timer);
  };
  if (!url) {
    await stop();
    throw new Error(
      `${label} did not start (${exited !== undefined ? `exited with ${exited}` : 'timed out'}):\n${output.slice(-1500)}`,
    );
  }
  return {
    label,
    url,
    pid,
    cpuSeconds: () => treeCpuSeconds(pid),
    stop,
    output: () => output,
  };
}
