/**
 * What a benchmark run records about itself, all of it measured: the commit and whether the tree
 * held uncommitted changes, the machine (CPUs, memory, Node), the load average sampled through the
 * run, and a short CPU calibration so a reader can compare the machine with their own.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { median, minOf } from './stats.ts';

export interface GitState {
  /** Full commit id of HEAD, or undefined outside a git checkout. */
  commit?: string;
  /** Paths with uncommitted changes (untracked included), the report file itself left out. */
  dirty: string[];
}

/** HEAD and the uncommitted changes of the checkout at `root`; `ignore` (the report) is left out. */
export function gitState(root: string, ignore?: string): GitState {
  const git = (args: string[]) =>
    spawnSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const head = git(['rev-parse', 'HEAD']);
  if (head.status !== 0) return { dirty: [] };
  const status = git(['status', '--porcelain', '--untracked-files=normal']);
  const skip = ignore ? path.relative(root, ignore).split(path.sep).join('/') : undefined;
  const dirty = status.stdout
    .split('\n')
    .filter((l) => l.length > 3)
    // "XY path" or "XY old -> new": the path as it is now.
    .map((l) => l.slice(3).split(' -> ').pop()!.replace(/^"|"$/g, ''))
    .filter((p) => p !== skip);
  return { commit: head.stdout.trim(), dirty };
}

export interface Calibration {
  /** 128 SHA-256 digests of a fixed 1 MiB buffer (native code): CPU ms, the least of 5 timings. */
  hashCpuMs: number;
  /** The same: wall ms, median of the 5 (above the CPU time when other processes took the CPU). */
  hashWallMs: number;
  /** 500 JSON round trips of a fixed 10 kB document (the JavaScript engine): CPU ms, least of 5. */
  jsonCpuMs: number;
  jsonWallMs: number;
}

const BUFFER = Buffer.alloc(1 << 20, 'dataapi-benchmark-calibration');
const DOCUMENT = {
  items: Array.from({ length: 100 }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    tags: ['a', 'b', 'c'],
    ratio: i / 7,
    nested: { ok: i % 2 === 0, when: '2026-01-01T00:00:00Z' },
  })),
};

/**
 * Fixed work timed five times, about a second on an idle machine. Judged by CPU time (this
 * process's user + system), which queueing behind other processes hardly changes, so two
 * machines compare even when one is busy; the wall time beside it shows how busy.
 */
export function calibrate(): Calibration {
  const time = (work: () => void) => {
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 5; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      work();
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    return { cpu: minOf(cpu), wall: median(wall) };
  };
  let sink = 0;
  const hash = time(() => {
    for (let i = 0; i < 128; i++) sink += createHash('sha256').update(BUFFER).digest()[0]!;
  });
  const json = time(() => {
    for (let i = 0; i < 500; i++)
      sink += (JSON.parse(JSON.stringify(DOCUMENT)) as typeof DOCUMENT).items.length;
  });
  if (sink < 0) throw new Error('unreachable: keeps the loops from being optimised away');
  return { hashCpuMs: hash.cpu, hashWallMs: hash.wall, jsonCpuMs: json.cpu, jsonWallMs: json.wall };
}

/** The 1-minute load average, sampled every `everyMs` until stopped. */
export class LoadSampler {
  readonly samples: number[] = [os.loadavg()[0]!];
  private readonly timer: NodeJS.Timeout;
  constructor(everyMs = 10_000) {
    this.timer = setInterval(() => this.samples.push(os.loadavg()[0]!), everyMs);
    this.timer.unref();
  }
  stop(): number[] {
    clearInterval(this.timer);
    this.samples.push(os.loadavg()[0]!);
    return this.samples;
  }
}

/** What a finished run knows about itself: stored with every section it measured. */
export interface RunRecord {
  commit?: string;
  /** Paths with uncommitted changes when the run started. */
  dirty: string[];
  /** When the run started, ISO. */
  at: string;
  /** Whole run, seconds. */
  seconds: number;
  method: string;
  quick: boolean;
  cpus: string;
  memGiB: number;
  node: string;
  os: string;
  /** 1-minute load average: at the start, at the end, and the samples in between. */
  load: { start: number; end: number; min: number; median: number; max: number; count: number };
  calibration: { start: Calibration; end?: Calibration };
  /** HEAD at the end, when it moved during the run. */
  endCommit?: string;
}

export function machineFacts(): Pick<RunRecord, 'cpus' | 'memGiB' | 'node' | 'os'> {
  const cpus = os.cpus();
  return {
    cpus: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`,
    memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

export function loadFigures(samples: number[]): RunRecord['load'] {
  return {
    start: samples[0] ?? Number.NaN,
    end: samples.at(-1) ?? Number.NaN,
    min: minOf(samples),
    median: median(samples),
    max: samples.length ? Math.max(...samples) : Number.NaN,
    count: samples.length,
  };
}

export const shortCommit = (run: Pick<RunRecord, 'commit'>) =>
  run.commit ? run.commit.slice(0, 10) : 'unknown commit';

/** "at commit abc (tree clean)" or "(3 uncommitted changes)". */
export function commitText(run: Pick<RunRecord, 'commit' | 'dirty'>): string {
  if (!run.commit) return 'outside a git checkout (commit unknown)';
  const n = run.dirty.length;
  return `at commit \`${shortCommit(run)}\` (${
    n === 0 ? 'tree clean' : `**${n} uncommitted change${n === 1 ? '' : 's'}**`
  })`;
}

export const fmtDuration = (seconds: number) => {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

export const fmtWhen = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
