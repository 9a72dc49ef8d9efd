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
  "Outside the judge (issue 49; the proxy process's CPU per exchange, at 500 req/s and at full load, variants in turns, medians of 7 runs, load average 6-15 from other jobs): the floor's own handler run inside the proxy's process costs what the floor does; the proxy's forwarding (the copy kept, the keys read, the deadline) adds 35-45 µs; handing the exchanges to judges that judge nothing adds about 50 µs more, mostly on the judging thread (its wake-ups and reading the batches). The hand-over cost the forwarding thread 12-18 µs per exchange while header pairs and a moved buffer per body crossed, and 3.5-6 µs with flat headers and one buffer per batch; with one timer for every upstream deadline, batches of up to 20 ms and the start time's date formatted once per second, the proxy went from 573-619 µs per exchange to 441-464 µs in the same runs (the floor 251-286 µs).";

/** The judging thread's own cost, profiled (see BENCHMARKS.md §12; bench/proxy.ts). */
const JUDGING_PROFILE =
  "Profiled on 2026-11-29 (`node --cpu-prof` on the proxy and on one judging thread fed the air-quality exchange, 5,000 times after 1,000 warm-ups, process CPU time; load average 13-20 from other jobs): judging one exchange costs 270-300 µs of CPU on its thread. About 30% of it is the checks themselves (envelope 9%, schema 9% of which Ajv 6%, status 4%, content-type 2.5%), 30% building the probe (JSON.parse 5%, the body as text 4%, the response headers redacted 4%, the parameters read 6%), 6% redacting the request URL, 3% reading the keys the request carried, 14% garbage collection, 2% the reply to the forwarding thread. No single part dominates; what was one-off per exchange on the forwarding thread (three copies of each body, a message per exchange, a record and its excerpt sent back for every exchange) is gone. Since then (issue 49; `bench/proxy-judge-cpu.ts`: the built judge fed the air-quality exchange 5,000 times after 1,000 warm-ups, medians of 7 rounds, three runs in turns with the code before it; load average 18-24 from other jobs) judging costs about half the CPU it did, 143 µs per exchange before and 68 µs after, mostly because the records it builds set their optional fields one by one instead of spreading them in (reading the envelope alone took 22 µs), the key's pattern is skipped on values holding no start of any of its forms, and each distinct request URL is parsed and redacted once.";

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
      `Where the proxy's cost goes on this machine (${os.availableParallelism()} cores, shared with other jobs during the run; every figure above moves with their load): the mock, the load generator and the server share the same cores, so with the CPU the floor's run got, dataapi proxy at these costs carries at most ${Math.round(bound * 100)}% of the floor's exchanges with every one judged, and 70% needs it at ${Math.round(needed)} µs per exchange or less (the floor's ${Math.round(fwd)} µs plus ${Math.round(needed - fwd)} µs for keeping and judging). The judging thread's CPU is taken from the forwarding thread, the mock and the load generator on the same two cores: that is what the p50 and p99 over the floor measure. The forwarding thread does what the floor does plus a little (each exchange's headers and small bodies copied into its batch, one message per 20 ms or 64 exchanges). ${FORWARDING_PROFILE} ${JUDGING_PROFILE}`,
    );
  return lines;
}
