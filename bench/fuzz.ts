/**
 * Fuzzing (issue 18): generated requests per second against the service's mock, with the fixed
 * suite's requests per second in the same process as the reference, and the time to shrink a
 * planted failure. The measuring loop runs in a fresh process (bench/workers/fuzz.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { timed } from './lib/proc.ts';
import { fmtInt, fmtMs, median } from './lib/stats.ts';

interface Results {
  fuzz: number;
  fixedPerSecond: number[];
  fuzzPerSecond: number[];
  generated: number;
  shrink: { ms: number; requests: number; found: string }[];
}

export async function fuzzThroughput(ctx: BenchContext): Promise<Section> {
  if (!existsSync(path.join(ctx.root, 'generated/mock/index.ts')))
    throw new Error('generated/mock is missing: run `node bin/dataapi.js generate` first');
  const fuzz = ctx.quick ? 10 : 50;
  ctx.log(`fuzz: --fuzz ${fuzz} against the mock, ${ctx.runs} runs`);
  const run = await timed(process.execPath, ['--import', 'tsx', 'bench/workers/fuzz.ts'], {
    cwd: ctx.root,
    env: { ...process.env, BENCH_RUNS: String(ctx.runs), BENCH_FUZZ: String(fuzz) },
    timeoutMs: 15 * 60_000,
  });
  const line = run.output
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"results"'));
  if (run.code !== 0 || !line)
    throw new Error(`the fuzz worker failed (${run.code}): ${run.output.slice(-1500)}`);
  const r = (JSON.parse(line) as { results: Results }).results;
  const fixed = median(r.fixedPerSecond);
  const generated = median(r.fuzzPerSecond);
  const shrinkMs = median(r.shrink.map((s) => s.ms));
  const shrinkRequests = median(r.shrink.map((s) => s.requests));
  return {
    id: 'fuzz',
    title: '11. Fuzzing: generated requests per second and time to shrink',
    body: [
      `The service's generated mock in the measuring process (127.0.0.1, rate limiting off), the contract runtime's transport with a scheduler that never waits: pacing is each operation's declared limit, which against a deployment bounds every figure here, not the toolkit's speed. Medians of ${ctx.runs} runs.`,
      '',
      '| figure | value |',
      '| --- | ---: |',
      `| fixed suite: requests/s (every operation's probes; the reference) | ${fmtInt(fixed)} |`,
      `| \`--fuzz ${r.fuzz}\`: generated requests/s (${fmtInt(r.generated)} requests: generation, validation, sending, judging by every check) | ${fmtInt(generated)} |`,
      `| generated vs fixed requests/s | ${Math.round((generated / fixed) * 100)}% |`,
      `| time to shrink a planted failure (getAirQuality answers 500 when the city holds a comma) | ${fmtMs(shrinkMs)} |`,
      `| requests spent shrinking it | ${fmtInt(shrinkRequests)} |`,
      `| minimal request found | \`${r.shrink.map((s) => s.found).join('`, `')}\` |`,
      '',
      `The time to shrink is the planted run's time minus the same seed's run against the mock without the bug (seeds 42 to ${41 + ctx.runs}). Reproduce: \`BENCH_RUNS=${ctx.runs} BENCH_FUZZ=${r.fuzz} node --import tsx bench/workers/fuzz.ts\` (prints the raw series as JSON).`,
    ].join('\n'),
    verdicts: [],
  };
}
