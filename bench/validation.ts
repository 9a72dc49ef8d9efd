/**
 * Validation throughput (issue 9, item 5): the contract runtime's compiled validators against Ajv
 * used directly, on the air-quality and admission-prediction example bodies. The measuring loop
 * runs in a fresh process (bench/workers/validation.ts) so no other benchmark's JIT state leaks in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { timed } from './lib/proc.ts';
import { fmtInt, median, type Verdict } from './lib/stats.ts';

interface Series {
  operation: string;
  contender: string;
  bytes: number;
  perSecond: number[];
  perCpuSecond: number[];
}

export async function validationThroughput(ctx: BenchContext): Promise<Section> {
  if (!existsSync(path.join(ctx.root, 'generated/model.ts')))
    throw new Error('generated/model.ts is missing: run `node bin/dataapi.js generate` first');
  const sliceMs = ctx.quick ? 150 : 300;
  ctx.log('validation: contract runtime vs Ajv directly');
  const run = await timed(process.execPath, ['--import', 'tsx', 'bench/workers/validation.ts'], {
    cwd: ctx.root,
    env: {
      ...process.env,
      BENCH_RUNS: String(ctx.runs),
      BENCH_WARMUP: String(Math.max(1, ctx.warmup)),
      BENCH_SLICE_MS: String(sliceMs),
    },
    timeoutMs: 5 * 60_000,
  });
  const line = run.output
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"results"'));
  if (run.code !== 0 || !line)
    throw new Error(`the validation worker failed (${run.code}): ${run.output.slice(-1500)}`);
  const { results } = JSON.parse(line) as { results: Series[] };
  const rows: string[] = [];
  const verdicts: Verdict[] = [];
  for (const operation of [...new Set(results.map((r) => r.operation))]) {
    const of = results.filter((r) => r.operation === operation);
    const base = median(of.find((r) => r.contender === 'Ajv directly')!.perSecond);
    const baseCpu = median(of.find((r) => r.contender === 'Ajv directly')!.perCpuSecond);
    for (const s of of) {
      const m = median(s.perSecond);
      const c = median(s.perCpuSecond);
      rows.push(
        `| ${operation} (${fmtInt(s.bytes)} bytes) | ${s.contender} | ${fmtInt(m)} | ${Math.round(
          (m / base) * 100,
        )}% | ${fmtInt(c)} | ${Math.round((c / baseCpu) * 100)}% |`,
      );
    }
    const mine = of.find((r) => r.contender === 'contract runtime: compiled validator')!;
    const ours = median(mine.perSecond);
    const oursCpu = median(mine.perCpuSecond);
    verdicts.push({
      target: `validation (${operation}): contract runtime >= 90% of Ajv directly`,
      // Judged per CPU-second: on an idle core that equals the wall-clock rate, and on a shared
      // machine the wall clock mostly measures how often the loop was descheduled.
      measured: `${Math.round((oursCpu / baseCpu) * 100)}% per CPU-second (wall clock ${Math.round((ours / base) * 100)}%)`,
      met: oursCpu / baseCpu >= 0.9,
    });
  }
  return {
    id: 'validation',
    title: '5. Validation throughput (contract runtime vs Ajv directly)',
    body: [
      `Each figure is the median of ${ctx.runs} time slices of ${sliceMs} ms (after a warm-up slice), the contenders taking turns within each round, in one fresh process (\`node --import tsx bench/workers/validation.ts\`). The body is the operation's 200 example from the model, the schema its 200 schema (a \`$ref\` into the model's schema root). The contract runtime's validator is \`validatorFor(model).compile(schema)\` from \`dataapi/runtime/shared\`, which \`contract-tests/checks.ts\` calls for every response; "Ajv directly" is a plain Ajv 2020 instance with ajv-formats and the same schema root. The runtime sets \`allErrors: true\` (a failure lists every error); the last row shows what that setting alone costs. The target is judged on validations per CPU-second of the process: on an idle core that is the wall-clock rate, while on a busy machine the wall clock also measures how often the loop was descheduled (both are shown; the load average of the run is in the header).`,
      '',
      '| body | validator | validations/s (median) | vs Ajv directly | per CPU-second | vs Ajv directly |',
      '| --- | --- | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      `Reproduce: \`BENCH_RUNS=${ctx.runs} BENCH_SLICE_MS=${sliceMs} node --import tsx bench/workers/validation.ts\` (prints the raw series as JSON).`,
    ].join('\n'),
    verdicts,
  };
}
