/**
 * Contract suite wall time and peak memory (issue 9, item 6): the whole generated suite against
 * the embedded mock, `node bin/dataapi.js contract`, as a cold process.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { ensureOk, suiteSummary, timed, type TimedRun } from './lib/proc.ts';
import { fmtMiB, fmtMs, maxOf, median, minOf } from './lib/stats.ts';

export async function contractSuite(ctx: BenchContext): Promise<Section> {
  if (!existsSync(path.join(ctx.root, 'generated/contract-tests')))
    throw new Error(
      'generated/contract-tests is missing: run `node bin/dataapi.js generate` first',
    );
  const results = path.relative(ctx.root, path.join(ctx.work, 'contract-results.json'));
  const argv = ['bin/dataapi.js', 'contract', '--reporter', 'dot', '--results', results];
  const once = async () =>
    ensureOk(
      'dataapi contract',
      await timed(process.execPath, argv, {
        cwd: ctx.root,
        sampleTree: true,
        timeoutMs: 10 * 60_000,
      }),
    );
  for (let w = 0; w < ctx.warmup; w++) {
    ctx.log('  warm-up dataapi contract');
    await once();
  }
  const runs: TimedRun[] = [];
  for (let r = 0; r < ctx.runs; r++) {
    const run = await once();
    ctx.log(
      `  run ${r + 1}/${ctx.runs} dataapi contract: ${fmtMs(run.ms)}, tree RSS ${fmtMiB(run.treeRssKb)}`,
    );
    runs.push(run);
  }
  let counts = suiteSummary(runs.at(-1)?.output ?? '') ?? 'no summary printed';
  try {
    JSON.parse(await readFile(path.join(ctx.root, results), 'utf8'));
  } catch {
    counts += ' (no results file)';
  }
  const times = runs.map((r) => r.ms);
  const tree = maxOf(runs.map((r) => r.treeRssKb ?? Number.NaN));
  const largest = maxOf(runs.map((r) => r.maxRssKb ?? Number.NaN));
  return {
    id: 'contract',
    title: '6. Contract suite against the embedded mock',
    body: [
      `The whole generated suite (one vitest file per operation) against the embedded mock, which the runner starts in-process on an ephemeral port; a cold process each run. Last run: ${counts}.`,
      '',
      '| figure | value |',
      '| --- | ---: |',
      `| wall time (median) | ${fmtMs(median(times))} |`,
      `| wall time (min – max) | ${fmtMs(minOf(times))} – ${fmtMs(maxOf(times))} |`,
      `| peak memory, whole process tree (runner + vitest workers, summed RSS sampled every 50 ms, so a short peak can be missed) | ${fmtMiB(tree)} |`,
      `| peak memory, largest single process (GNU time) | ${fmtMiB(largest)} |`,
      '',
      `Command: \`node ${argv.join(' ')}\` (from the project root; \`npm start\` runs the same suite after generating). No target is set for this figure.`,
    ].join('\n'),
    verdicts: [],
  };
}
