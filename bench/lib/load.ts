/**
 * Load runs against a server in its own process: autocannon from the bench process (10
 * connections, pipelining 1), the exact time of every 2xx response for the percentiles, and the
 * CPU used by the load generator and by the server over the run; wrk, when installed, as a
 * cross-check of the load generator.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { BenchContext } from './context.ts';
import type { RunningServer } from './servers.ts';
import { fmtInt, median } from './stats.ts';

export const CONNECTIONS = 10;

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
/** A running autocannon job: thenable, and an emitter of per-response events. */
interface CannonJob extends PromiseLike<CannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ): void;
}
type Autocannon = (opts: Record<string, unknown>) => CannonJob;
// Required when a load runs: `npm run bench` installs it into bench/node_modules first.
const autocannon: Autocannon = ((...args: Parameters<Autocannon>) =>
  (createRequire(import.meta.url)('autocannon') as Autocannon)(...args)) as Autocannon;

export interface LoadRun {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU share of one core used by the load generator (this process) during the run. */
  loaderCpu: number;
  serverCpu: number;
}

export async function load(server: RunningServer, path: string, seconds: number): Promise<LoadRun> {
  const cpu0 = process.cpuUsage();
  const s0 = await server.cpuSeconds();
  const t0 = performance.now();
  const job = autocannon({
    url: server.url + path,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  });
  // autocannon's histogram holds whole milliseconds (a loopback p99 is often "0 ms"); its response
  // event carries the exact time, so percentiles are computed from every 2xx response time.
  const times: number[] = [];
  job.on('response', (_c, status, _b, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const r = await job;
  times.sort((a, b) => a - b);
  const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const s1 = await server.cpuSeconds();
  return {
    rps: r.requests.total / r.duration,
    p50: pct(0.5),
    p99: pct(0.99),
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    loaderCpu: (cpu.user + cpu.system) / 1e6 / wall,
    serverCpu: (s1 - s0) / wall,
  };
}

export async function wrkRun(
  url: string,
  seconds: number,
): Promise<{ rps: number; p99: number } | undefined> {
  if (!existsSync('/usr/bin/wrk')) return undefined;
  const { stdout } = await promisify(execFile)('/usr/bin/wrk', [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '--latency',
    url,
  ]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const m = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(stdout);
  const unit = m?.[2] === 'us' ? 0.001 : m?.[2] === 's' ? 1000 : 1;
  return { rps, p99: m ? Number(m[1]) * unit : Number.NaN };
}

/** The medians of several runs (non-2xx answers and errors: their sums). */
export interface LoadSummary extends LoadRun {
  /** Requests per CPU-second of the server: steady when the server gets less than a core. */
  perCpu: number;
  /** Requests per second of each run, in the order run (servers loaded in turns: paired). */
  runs: number[];
  /** wrk's figures (one run), when wrk is installed. */
  wrk?: { rps: number; p99: number };
}

/** Medians of the runs (sums of the non-2xx answers and errors). */
export function summarise(list: LoadRun[]): LoadSummary {
  return {
    rps: median(list.map((x) => x.rps)),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    non2xx: list.reduce((a, x) => a + x.non2xx, 0),
    errors: list.reduce((a, x) => a + x.errors, 0),
    loaderCpu: median(list.map((x) => x.loaderCpu)),
    serverCpu: median(list.map((x) => x.serverCpu)),
    perCpu: median(list.map((x) => x.rps / Math.max(x.serverCpu, 1e-6))),
    runs: list.map((x) => x.rps),
  };
}

/**
 * Loads each server in turn (warm-ups, then `ctx.runs` rounds in which every server takes one
 * turn, so a burst of load from elsewhere hits them alike), then wrk once each.
 */
export async function loadInTurns(
  ctx: BenchContext,
  servers: RunningServer[],
  path: string,
  seconds: number,
  rounds = ctx.runs,
): Promise<Map<RunningServer, LoadSummary>> {
  for (let w = 0; w < Math.max(1, ctx.warmup); w++)
    for (const s of servers) {
      ctx.log(`  warm-up ${s.label}`);
      await load(s, path, Math.min(2, seconds));
    }
  const runs = new Map<RunningServer, LoadRun[]>(servers.map((s) => [s, []]));
  for (let r = 0; r < rounds; r++)
    for (const s of servers) {
      const run = await load(s, path, seconds);
      ctx.log(
        `  run ${r + 1}/${rounds} ${s.label}: ${fmtInt(run.rps)} req/s, p99 ${run.p99.toFixed(2)} ms, loader CPU ${Math.round(run.loaderCpu * 100)}%`,
      );
      runs.get(s)!.push(run);
    }
  const out = new Map<RunningServer, LoadSummary>();
  for (const s of servers) {
    const wrk = await wrkRun(s.url + path, seconds);
    out.set(s, { ...summarise(runs.get(s)!), ...(wrk ? { wrk } : {}) });
  }
  return out;
}

export const LOAD_TABLE_HEAD = [
  '| server | req/s (median) | p50 | p99 | non-2xx | errors | server CPU | req per server CPU-second | load generator CPU | wrk cross-check (1 run) |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
];

/** One row of the load table. */
export function loadRow(label: string, x: LoadSummary): string {
  return `| ${label} | ${fmtInt(x.rps)} | ${x.p50.toFixed(2)} ms | ${x.p99.toFixed(2)} ms | ${fmtInt(
    x.non2xx,
  )} | ${x.errors} | ${Math.round(x.serverCpu * 100)}% | ${fmtInt(x.perCpu)} | ${Math.round(x.loaderCpu * 100)}% | ${
    x.wrk ? `${fmtInt(x.wrk.rps)} req/s, p99 ${x.wrk.p99.toFixed(2)} ms` : '–'
  } |`;
}

/** What the table's CPU columns mean, and whether autocannon may have capped the figures. */
export function loadNotes(summaries: LoadSummary[]): string {
  const saturated = summaries.some((x) => x.loaderCpu >= 0.9);
  return `CPU is the share of one core over the run (server: its process tree from /proc; load generator: this process). When other processes compete for the cores a server gets less than a core; requests per server CPU-second does not depend on how much CPU the server got, so it is the steadier comparison. ${
    saturated
      ? '**The load generator saturated a core (>= 90%) in at least one series**: figures may be capped by autocannon rather than by the server; the wrk column (a cheaper C load generator) shows the difference.'
      : 'The load generator did not saturate a core (< 90% in every series).'
  } Latency percentiles are computed from the exact time of every 2xx response (autocannon's \`response\` event), not from its whole-millisecond histogram.`;
}

/**
 * The median, over the rounds, of `a`'s throughput over `b`'s in the same round: servers loaded
 * in turns meet the same bursts of other load, so the paired ratio is steadier than a ratio of
 * medians taken from different rounds.
 */
export const pairedRatio = (a: LoadSummary, b: LoadSummary): number =>
  median(a.runs.map((x, i) => x / (b.runs[i] ?? Number.NaN)));
