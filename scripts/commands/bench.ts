/** `dataapi bench`: run the benchmarks of bench/ side by side and rewrite BENCHMARKS.md. */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '../command.ts';
import { UsageError, guard, parseFlags } from '../args.ts';
import type { BenchContext, Section } from '../../bench/lib/context.ts';
import { BENCHMARKS, BENCHMARK_IDS } from '../../bench/index.ts';
import { mergeSections, renderReport } from '../../bench/report.ts';
import { verdictText } from '../../bench/lib/stats.ts';

const usage = `Usage: dataapi bench [--quick] [--only ids] [--runs N] [--warmup N] [--out FILE]

Runs the benchmarks side by side against openapi-typescript, @hey-api/openapi-ts, a bare Fastify
route and Prism, and writes the medians, ratios and targets to BENCHMARKS.md. Not a test.

  --quick       1 measured run, no warm-up, shorter load tests; writes bench/.work/BENCHMARKS.quick.md
                unless --out is given
  --only IDS    comma-separated subset of: ${BENCHMARK_IDS.join(', ')}
                (the other sections of the file are kept as they were)
  --runs N      measured runs per figure (median reported)   default 5 (quick: 1)
  --warmup N    warm-up runs before measuring                default 1 (quick: 0)
  --out FILE    report file                                   default BENCHMARKS.md

Exit codes: 0 written (a missed target is reported, not an error), 1 a benchmark could not run,
2 bad input (flags).`;

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface BenchFlags {
  quick: boolean;
  runs: number;
  warmup: number;
  only: string[];
  out: string;
}

function readFlags(argv: string[]): BenchFlags {
  const { values } = parseFlags(
    argv,
    {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      out: { type: 'string' },
    },
    usage,
  );
  const quick = values.quick === true;
  const count = (name: string, text: unknown, fallback: number, min: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min)
      throw new UsageError(`--${name} must be an integer >= ${min}\n\n${usage}`);
    return n;
  };
  const only =
    typeof values.only === 'string'
      ? values.only
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [...BENCHMARK_IDS];
  const unknown = only.filter((id) => !BENCHMARK_IDS.includes(id));
  if (unknown.length > 0)
    throw new UsageError(`unknown benchmark ${unknown.join(', ')}\n\n${usage}`);
  const out = path.resolve(
    (values.out as string | undefined) ??
      (quick ? 'bench/.work/BENCHMARKS.quick.md' : path.join(PROJECT_ROOT, 'BENCHMARKS.md')),
  );
  return {
    quick,
    runs: count('runs', values.runs, quick ? 1 : 5, 1),
    warmup: count('warmup', values.warmup, quick ? 0 : 1, 0),
    only,
    out,
  };
}

/** Runs the chosen benchmarks; one that cannot run is reported as such, never left out. */
async function runBenchmarks(
  ctx: BenchContext,
  only: string[],
): Promise<{ sections: Section[]; failed: number }> {
  const sections: Section[] = [];
  let failed = 0;
  for (const bench of BENCHMARKS.filter((b) => only.includes(b.id))) {
    const t0 = performance.now();
    try {
      sections.push(await bench.run(ctx));
    } catch (err) {
      failed++;
      sections.push({
        id: bench.id,
        title: bench.title,
        body: `**Not measured in this run**: ${String((err as Error).message ?? err)
          .split('\n')
          .slice(0, 6)
          .join(' ')
          .slice(0, 600)}`,
        verdicts: bench.targets.map((target) => ({ target, measured: '–', met: undefined })),
      });
      ctx.log(`${bench.id}: FAILED: ${(err as Error).stack ?? err}`);
    }
    ctx.log(`${bench.id}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return { sections, failed };
}

/** Merges the new sections into the report file and writes it, formatted like the tree. */
async function writeReport(
  flags: BenchFlags,
  sections: Section[],
  started: { at: Date; load: number[] },
  argv: string[],
): Promise<void> {
  const { quick, runs, warmup, only, out } = flags;
  const stamp = `Measured ${started.at.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${
    quick ? 'quick run (1 run, no warm-up)' : `median of ${runs} runs after ${warmup} warm-up`
  }.`;
  const ids = BENCHMARKS.map((b) => b.id);
  const merged = await mergeSections(out, sections, ids, stamp);
  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  await mkdir(path.dirname(out), { recursive: true });
  // Formatted like every other file of the tree (`npm test` runs `prettier --check .`).
  const prettier = await import('prettier');
  const text = await prettier.format(
    renderReport(
      {
        root: PROJECT_ROOT,
        runs,
        warmup,
        quick,
        command,
        startedAt: started.at,
        startLoad: started.load,
        ...(only.length < BENCHMARK_IDS.length ? { only } : {}),
      },
      merged,
    ),
    { ...((await prettier.resolveConfig(out)) ?? {}), parser: 'markdown' },
  );
  await writeFile(out, text);
}

export const command: Command = {
  summary:
    'benchmark generation, the mock, validation and the contract runner (writes BENCHMARKS.md)',
  usage,
  run: (argv) =>
    guard(async () => {
      const flags = readFlags(argv);
      const work = path.join(PROJECT_ROOT, 'bench', '.work', 'run');
      await rm(work, { recursive: true, force: true });
      await mkdir(work, { recursive: true });
      const started = { at: new Date(), load: os.loadavg() };
      const ctx: BenchContext = {
        root: PROJECT_ROOT,
        work,
        runs: flags.runs,
        warmup: flags.warmup,
        quick: flags.quick,
        log: (line) => process.stderr.write(`${line}\n`),
      };
      const { sections, failed } = await runBenchmarks(ctx, flags.only);
      await writeReport(flags, sections, started, argv);
      for (const v of sections.flatMap((s) => s.verdicts))
        process.stdout.write(
          `${verdictText(v).replace(/\*/g, '').padEnd(13)} ${v.target}: ${v.measured}\n`,
        );
      const seconds = ((Date.now() - started.at.getTime()) / 1000).toFixed(0);
      process.stdout.write(
        `dataapi bench: ${sections.length} benchmark(s) in ${seconds} s; written to ${path.relative(process.cwd(), flags.out)}\n`,
      );
      // Missed targets are findings, not errors; a benchmark that could not run is an error.
      return failed > 0 ? 1 : 0;
    }),
};
