/**
 * Running a benchmarked command as a cold child process: wall time measured around the spawn,
 * peak memory as the child's maximum resident set size from GNU time (`/usr/bin/time -f %M`),
 * or, for commands that fan out into several processes, as the peak of the summed RSS of the
 * whole process tree sampled from /proc.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const GNU_TIME = '/usr/bin/time';
export const hasGnuTime = () => existsSync(GNU_TIME);

export interface TimedRun {
  ms: number;
  /** Maximum RSS of the largest process (GNU time), in KiB; undefined without /usr/bin/time. */
  maxRssKb?: number;
  /** CPU time (user + system) of the child and its waited-for descendants, in ms (GNU time). */
  cpuMs?: number;
  /** Peak of the summed RSS of the process tree (sampled every 50 ms), in KiB, when asked for. */
  treeRssKb?: number;
  code: number;
  output: string;
}

export interface TimedOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Sample the RSS of the whole process tree (for commands that start workers). */
  sampleTree?: boolean;
  /** Kill the child after this long (a benchmark must end by itself). */
  timeoutMs?: number;
}

let seq = 0;

export async function timed(
  cmd: string,
  args: string[],
  options: TimedOptions = {},
): Promise<TimedRun> {
  const rssFile = path.join(os.tmpdir(), `dataapi-bench-rss-${process.pid}-${seq++}`);
  const gnu = hasGnuTime();
  const [file, argv] = gnu
    ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, cmd, ...args]]
    : [cmd, args];
  const started = performance.now();
  const child = spawn(file, argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    // eslint-disable-next-line no-control-regex
    output = (output + chunk.toString().replace(/\x1b\[[0-9;]*m/g, '')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let treePeak = 0;
  const sampler = options.sampleTree
    ? setInterval(() => {
        if (child.pid !== undefined)
          void treeRssKb(child.pid).then((kb) => (treePeak = Math.max(treePeak, kb)));
      }, 50)
    : undefined;
  const killer =
    options.timeoutMs !== undefined
      ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
      : undefined;
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  const ms = performance.now() - started;
  if (sampler) clearInterval(sampler);
  if (killer) clearTimeout(killer);
  let maxRssKb: number | undefined;
  let cpuMs: number | undefined;
  if (gnu) {
    const text = await readFile(rssFile, 'utf8').catch(() => '');
    // GNU time writes "Command exited with non-zero status N" before the figures on failure.
    const m = /^(\d+) ([\d.]+) ([\d.]+)$/.exec(text.trim().split('\n').pop() ?? '');
    if (m) {
      maxRssKb = Number(m[1]);
      cpuMs = (Number(m[2]) + Number(m[3])) * 1000;
    }
    await rm(rssFile, { force: true });
  }
  return {
    ms,
    code,
    output,
    ...(maxRssKb !== undefined ? { maxRssKb } : {}),
    ...(cpuMs !== undefined ? { cpuMs } : {}),
    ...(options.sampleTree ? { treeRssKb: treePeak } : {}),
  };
}

/** Summed RSS (KiB) of a process and all its descendants, from /proc (Linux only; 0 elsewhere). */
export async function treeRssKb(root: number): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        const status = await readFile(`/proc/${e}/status`, 'utf8').catch(() => '');
        const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1];
        const vmrss = /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
        if (ppid) parent.set(Number(e), Number(ppid));
        if (vmrss) rss.set(Number(e), Number(vmrss));
      }),
  );
  let total = 0;
  for (const [pid, kb] of rss) {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && hops < 64; hops++) {
      if (p === root) {
        total += kb;
        break;
      }
      p = parent.get(p);
    }
  }
  return total;
}

/** Throws with the command's output tail when a benchmarked command failed. */
export function ensureOk(label: string, run: TimedRun): TimedRun {
  if (run.code !== 0)
    throw new Error(`${label} exited with ${run.code}:\n${run.output.trim().slice(-2000)}`);
  return run;
}

/** The closing summary `dataapi contract` prints (its "Checks:" and "Coverage:" lines). */
export function suiteSummary(output: string): string | undefined {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(Checks|Coverage):/.test(l) || /\d+ operations, \d+ checks:/.test(l));
  return lines.length ? lines.join('; ') : undefined;
}
