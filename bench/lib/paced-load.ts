/**
 * Latency at a set pace: the same request sent at `rate` per second, evenly, over the same number
 * of connections as the load table, to servers that all carry that rate with room to spare. A
 * closed loop at full load measures latency too, but there it follows from throughput (Little's
 * law: with 10 connections always busy, p50 is about 10 / req/s), so a server that carries fewer
 * requests shows a higher p50 whatever it adds per request. At a pace both carry, the difference
 * is what a request waits for the server itself: what QA sees through the proxy during a load
 * test that does not saturate it.
 */
import http from 'node:http';
import type { RunningServer } from './servers.ts';
import { CONNECTIONS } from './load.ts';
import { median } from './stats.ts';

export interface PacedRun {
  /** Requests per second asked for, and those answered per second of the run. */
  rate: number;
  achieved: number;
  p50: number;
  p99: number;
  /** Answers that were not 200, and requests that failed. */
  errors: number;
}

/** One run: `rate` per second for `seconds`, latency from the moment each request is written. */
export async function pacedRun(
  server: RunningServer,
  path: string,
  rate: number,
  seconds: number,
): Promise<PacedRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const total = Math.round(rate * seconds);
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      http
        .get(server.url + path, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) times.push(performance.now() - t0);
            else errors++;
            resolve();
          });
          res.on('error', () => (errors++, resolve()));
        })
        .on('error', () => (errors++, resolve()));
    });
  // Request i starts no earlier than i / rate seconds in (each connection takes the next one due).
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < total; i = next++) {
        const wait = started + (i * 1000) / rate - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await one();
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { rate, achieved: times.length / wall, p50: pct(0.5), p99: pct(0.99), errors };
}

/**
 * `runs` paced runs of each server in turns (A B, A B, ...), after one warm-up run each; the
 * medians of their percentiles.
 */
export async function pacedInTurns(
  servers: RunningServer[],
  path: string,
  rate: number,
  seconds: number,
  runs: number,
): Promise<Map<RunningServer, PacedRun>> {
  const by = new Map<RunningServer, PacedRun[]>(servers.map((s) => [s, []]));
  for (const s of servers) await pacedRun(s, path, rate, Math.min(seconds, 2));
  for (let r = 0; r < runs; r++)
    for (const s of servers) by.get(s)!.push(await pacedRun(s, path, rate, seconds));
  return new Map(
    servers.map((s) => {
      const list = by.get(s)!;
      return [
        s,
        {
          rate,
          achieved: median(list.map((x) => x.achieved)),
          p50: median(list.map((x) => x.p50)),
          p99: median(list.map((x) => x.p99)),
          errors: list.reduce((a, x) => a + x.errors, 0),
        },
      ];
    }),
  );
}
