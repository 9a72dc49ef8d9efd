/**
 * Where the proxy benchmark's CPU goes, per exchange: each server's CPU over its requests, the
 * load generator's, and what the machine's cores allow when every exchange is judged. On a
 * machine with few cores the judging thread competes with the upstream and the load generator
 * for the same cores, so the proxy's share of the floor is bounded by CPU, not by waiting.
 */
import os from 'node:os';
import type { LoadSummary } from './lib/load.ts';

const us = (cpuShare: number, rps: number) => (cpuShare / rps) * 1e6;

/** What the proxy spends outside the judge, measured (issue 49). */
const FORWARDING_PROFILE =
  "Per thread (issue 49, 2026-11-30; each thread's CPU from /proc over an 8-second load at 10 connections, 2,863 req/s): the forwarding thread 257 µs per exchange, the judging thread 57 µs, V8's helper threads 16 µs, where the floor's process spent 238 µs in all in the bench run of the same hour. The forwarding thread does what the floor does plus about 20 µs: the copy kept, the deadline, each batch written as one JSON text per 5 ms or 64 exchanges, and the judgements read back, most of them as one JSON text too. Structured cloning the same objects cost both threads two to three times as much (per exchange: 9.2 against 6.6 µs to write a batch, 13.8 against 5.7 µs to read it, 4.9 against 1.7 µs to read the replies). The keys each request carried are read by the judges, no longer also by the forwarding thread (3.9 µs per exchange). Profiled under the same load before and after these changes (`node --cpu-prof`, 10 s): 2,393 -> 2,843 req/s, the proxy's CPU per exchange 450 -> 360 µs.";

/** The judging thread's own cost, profiled (see BENCHMARKS.md §12; bench/proxy.ts). */
const JUDGING_PROFILE =
  "The judging thread (`node --cpu-prof`, the same load): a third of its busy time builds the probe (the body decoded and parsed, the response headers redacted), a quarter runs the checks. A record's excerpt is written only for the records the reports keep and the findings that show it: written for every exchange, it took a fifth of the judging thread's busy time. The judging thread at a lower priority (nice 5, 10 or 19, its own on Linux) made no steady difference: in four A/B runs beside the floor (5 s each in turns, 3 to 9 rounds) nice 10 carried from 5% fewer to 10% more exchanges than nice 0, within the spread of the runs themselves (a run's share of the floor ranged from 55% to 80% for the same code), so it judges at the process's priority.";

export function cpuLines(
  direct: LoadSummary,
  floor: LoadSummary,
  proxy: LoadSummary,
  /** Every target on the air-quality request met (throughput, p50, p99). */
  allMet: boolean,
): string[] {
  const mock = us(direct.serverCpu, direct.rps);
  const fwd = us(floor.serverCpu, floor.rps);
  const px = us(proxy.serverCpu, proxy.rps);
  const loader = us(floor.loaderCpu, floor.rps);
  // The CPU the floor's run got (mock, floor, load generator) carries this many exchanges
  // through dataapi proxy at its costs: the share of the floor that CPU allows.
  const bound = (mock + loader + fwd) / (mock + loader + px);
  const needed = (mock + loader + fwd) / 0.7 - mock - loader;
  const lines = [
    `CPU per exchange (server process CPU over its requests): the mock ${Math.round(mock)} µs, the forwarding floor ${Math.round(fwd)} µs, dataapi proxy ${Math.round(px)} µs (its forwarding and judging threads together: ${Math.round(px - fwd)} µs more than the floor), the load generator ${Math.round(loader)} µs.`,
  ];
  if (!allMet)
    lines.push(
      '',
      `Where the proxy's cost goes on this machine (${os.availableParallelism()} cores, shared with other jobs during the run; every figure above moves with their load): the mock, the load generator and the server share the same cores, so with the CPU the floor's run got, dataapi proxy at these costs carries at most ${Math.round(bound * 100)}% of the floor's exchanges with every one judged, and 70% needs it at ${Math.round(needed)} µs per exchange or less (the floor's ${Math.round(fwd)} µs plus ${Math.round(needed - fwd)} µs for keeping and judging). The judging thread's CPU is taken from the forwarding thread, the mock and the load generator on the same two cores: that is what the p50 and p99 over the floor measure. The forwarding thread does what the floor does plus a little (each exchange's headers and small bodies copied into its batch, one message per 5 ms or 64 exchanges). ${FORWARDING_PROFILE} ${JUDGING_PROFILE}`,
    );
  return lines;
}
