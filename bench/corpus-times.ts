/**
 * The corpus run's time per description (issue 26), for BENCHMARKS.md: read from the corpus
 * results file (bench/.work/corpus/results.jsonl, written by `npm run corpus`, which takes hours
 * and is not re-run here), with the date range of the records it summarises.
 */
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { fmtMs } from './lib/stats.ts';
import { latest, quantile, readRecords } from './corpus/report.ts';
import type { CorpusRecord } from './corpus/classify.ts';

export async function corpusTimes(ctx: BenchContext): Promise<Section> {
  const file = path.join(ctx.root, 'bench/.work/corpus/results.jsonl');
  const records = [...latest(await readRecords(file)).values()];
  const base = { id: 'corpus', title: '14. The corpus run: time per description', verdicts: [] };
  if (records.length === 0)
    return { ...base, body: 'No corpus results on this machine: run `npm run corpus` first.' };
  const dates = records.map((r) => r.at).sort();
  const row = (
    label: string,
    list: CorpusRecord[],
    pick: (r: CorpusRecord) => number | undefined,
  ) => {
    const v = list
      .map(pick)
      .filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    return `| ${label} | ${v.length} | ${fmtMs(quantile(v, 0.5))} | ${fmtMs(quantile(v, 0.95))} | ${fmtMs(Math.max(...v))} |`;
  };
  const one = records.filter((r) => r.stage === 1);
  const two = records.filter((r) => r.stage === 2);
  const perOp = (r: CorpusRecord) =>
    r.operations ? (r.steps['generate'] ?? Number.NaN) / r.operations : undefined;
  const body = [
    `From \`bench/.work/corpus/results.jsonl\`: ${records.length} records of ${new Set(records.map((r) => r.id)).size} descriptions, made ${dates[0]} to ${dates.at(-1)} by \`npm run corpus\` (\`--jobs 2\` under \`nice\`, on this machine while other work ran: wall times include waiting for a core). Outcomes and failure classes: [docs/corpus.md](docs/corpus.md).`,
    '',
    '| step | descriptions | median | p95 | max |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('stage 1 (generate + type-check)', one, (r) => r.ms),
    row('  generate (`dataapi generate`, a new process)', one, (r) => r.steps['generate']),
    row("  type-check (tsc's check, long-lived checker)", one, (r) => r.steps['tsc']),
    row('  generate, per operation', one, perOp),
    row('stage 2 (contract suite + fuzz 3 against the embedded mock)', two, (r) => r.ms),
    '',
    'Reproduce: `npm run corpus` (resumable; `--shard i/n` to split it over machines), then `npm run bench -- --only corpus`.',
  ].join('\n');
  return { ...base, body };
}
