/**
 * `npm run bench`: run the benchmarks of bench/ side by side and rewrite BENCHMARKS.md. A tool of
 * this repository, not of the package: it runs from the sources (tsx), and the packages it
 * measures against install into bench/node_modules on first use (bench/package.json).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, guard, parseFlags } from '../scripts/args.ts';
import { ensureBenchPackages } from './lib/packages.ts';
import type { BenchContext, Section } from './lib/context.ts';
import { BENCHMARKS, BENCHMARK_IDS } from './index.ts';
import { mergeSections, renderReport, storeSection, type StoredSection } from './report.ts';
import {
  LoadSampler,
  calibrate,
  fmtDuration,
  gitState,
  loadFigures,
  machineFacts,
  type RunRecord,
} from './lib/run-info.ts';
import { verdictText } from './lib/stats.ts';

const usage = `Usage: npm run bench -- [--quick] [--only ids] [--runs N] [--warmup N] [--out FILE]

Runs the benchmarks side by side against openapi-typescript, @hey-api/openapi-ts, a bare Fastify
route and Prism, and writes the medians, ratios and targets to BENCHMARKS.md. Not a test.

  --quick       1 measured run, no warm-up, shorter load tests; writes bench/.work/BENCHMARKS.quick.md
                unless --out is given
  --only IDS    comma-separated subset of: ${BENCHMARK_IDS.join(', ')}
                (the other sections are kept; the header says which come from which run)
  --runs N      measured runs per figure (median reported)   default 3 (quick: 1); the
                contract suites of GitHub and Box run at most twice
  --warmup N    warm-up runs before measuring                default 1 (quick: 0)
  --out FILE    report file                                   default BENCHMARKS.md

Progress goes to stderr: each section as it starts (with the run time so far and the load
average) and how long it took. The defaults aim at a whole run of about 20 minutes on an idle
2-core machine (an estimate; the report's header gives the actual time and the load).

Exit codes: 0 every benchmark ran (a missed target is a finding, not an error), 1 a benchmark
could not run, 2 bad flags.`;

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
      quick: {
        type: 'boolean',
        help: '1 measured run, no warm-up, shorter load tests',
        default: false,
      },
      only: { type: 'string', help: 'comma-separated subset of the benchmarks' },
      runs: { type: 'string', help: 'measured runs per figure' },
      warmup: { type: 'string', help: 'warm-up runs before measuring' },
      out: { type: 'string', help: 'report file' },
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
    // 3 runs: a whole run of about 20 minutes on an idle 2-core machine (see the usage).
    runs: count('runs', values.runs, quick ? 1 : 3, 1),
    warmup: count('warmup', values.warmup, quick ? 0 : 1, 0),
    only,
    out,
  };
}

/**
 * Runs the chosen benchmarks in report order, telling stderr when each starts and ends; one that
 * cannot run is reported as such, never left out.
 */
async function runBenchmarks(
  ctx: BenchContext,
  only: string[],
): Promise<{ sections: { section: Section; took: number }[]; failed: number }> {
  const sections: { section: Section; took: number }[] = [];
  let failed = 0;
  const chosen = BENCHMARKS.filter((b) => only.includes(b.id));
  const started = performance.now();
  for (const [i, bench] of chosen.entries()) {
    const t0 = performance.now();
    const tag = `[${i + 1}/${chosen.length}] ${bench.id}`;
    ctx.log(
      `${tag}: ${bench.title} (run time so far ${fmtDuration((t0 - started) / 1000)}, load ${os.loadavg()[0]!.toFixed(2)})`,
    );
    let section: Section;
    try {
      section = await bench.run(ctx);
    } catch (err) {
      failed++;
      section = {
        id: bench.id,
        title: bench.title,
        body: `**Not measured in this run**: ${String((err as Error).message ?? err)
          .split('\n')
          .slice(0, 6)
          .join(' ')
          .slice(0, 600)}`,
        verdicts: bench.targets.map((target) => ({ target, measured: '–', met: undefined })),
      };
      ctx.log(`${bench.id}: FAILED: ${(err as Error).stack ?? err}`);
    }
    const took = (performance.now() - t0) / 1000;
    sections.push({ section, took });
    ctx.log(`${tag}: done in ${fmtDuration(took)}`);
  }
  return { sections, failed };
}

/** Merges the new sections into the report file and writes it, formatted like the tree. */
async function writeReport(
  flags: BenchFlags,
  fresh: StoredSection[],
  run: RunRecord,
  argv: string[],
): Promise<void> {
  const { only, out } = flags;
  const merged = await mergeSections(
    out,
    fresh,
    BENCHMARKS.map((b) => b.id),
  );
  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  await mkdir(path.dirname(out), { recursive: true });
  // Formatted like every other file of the tree (`npm test` runs `prettier --check .`).
  const prettier = await import('prettier');
  const text = await prettier.format(
    renderReport(
      {
        root: PROJECT_ROOT,
        command,
        run,
        ...(only.length < BENCHMARK_IDS.length ? { only } : {}),
      },
      merged,
    ),
    { ...((await prettier.resolveConfig(out)) ?? {}), parser: 'markdown' },
  );
  await writeFile(out, text);
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  return guard(async () => {
    const flags = readFlags(argv);
    await ensureBenchPackages(PROJECT_ROOT, (line) => process.stderr.write(`${line}\n`));
    const work = path.join(PROJECT_ROOT, 'bench', '.work', 'run');
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const log = (line: string) => process.stderr.write(`${line}\n`);
    // What the run records about itself, measured before any benchmark loads the machine.
    const git = gitState(PROJECT_ROOT, flags.out);
    const at = new Date();
    const sampler = new LoadSampler();
    log('bench: calibrating the CPU (fixed hashing and JSON work)');
    const calibrationStart = calibrate();
    const ctx: BenchContext = {
      root: PROJECT_ROOT,
      work,
      runs: flags.runs,
      warmup: flags.warmup,
      quick: flags.quick,
      log,
    };
    const { sections, failed } = await runBenchmarks(ctx, flags.only);
    const calibrationEnd = calibrate();
    const endCommit = gitState(PROJECT_ROOT).commit;
    const run: RunRecord = {
      ...(git.commit ? { commit: git.commit } : {}),
      dirty: git.dirty,
      at: at.toISOString(),
      seconds: (Date.now() - at.getTime()) / 1000,
      method: flags.quick
        ? '**quick run** (1 measured run, no warm-up, shorter loads): indicative only, not the figures of record'
        : `median of ${flags.runs} measured runs after ${flags.warmup} warm-up run${flags.warmup === 1 ? '' : 's'} (sections that cap the runs say so)`,
      quick: flags.quick,
      ...machineFacts(),
      load: loadFigures(sampler.stop()),
      calibration: { start: calibrationStart, end: calibrationEnd },
      ...(endCommit && endCommit !== git.commit ? { endCommit } : {}),
    };
    await writeReport(
      flags,
      sections.map(({ section, took }) => storeSection(section, run, took)),
      run,
      argv,
    );
    for (const v of sections.flatMap((s) => s.section.verdicts))
      process.stdout.write(
        `${verdictText(v).replace(/\*/g, '').padEnd(13)} ${v.target}: ${v.measured}\n`,
      );
    process.stdout.write(
      `bench: ${sections.length} benchmark(s) in ${fmtDuration(run.seconds)}; written to ${path.relative(process.cwd(), flags.out)}\n`,
    );
    // Missed targets are findings, not errors; a benchmark that could not run is an error.
    return failed > 0 ? 1 : 0;
  });
}

process.exitCode = await main(process.argv.slice(2));
