/**
 * docs/corpus.md from the results file: counts per outcome, the targets, every failure class with
 * its count and one example, and the time per description. Rewritten from the whole JSONL on every
 * run, so a resumed or sharded run reports everything done so far; the hand-written analysis
 * (bench/corpus/notes.md) is carried over as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { classOf, OUTCOMES, OUTCOME_TEXT, type CorpusRecord, type Outcome } from './classify.ts';
import type { CorpusSource } from './sources.ts';

export interface ReportInput {
  records: CorpusRecord[];
  source: Pick<CorpusSource, 'name' | 'title' | 'about'>;
  /** Ids swagger-parser's dereference reads (the second corpus): none may be refused. */
  dereferenced?: Set<string>;
  total: number;
  sampleSize: number;
  sampleSeed: number;
  fuzz: number;
  notesFile: string;
}

/** The last record of each (stage, id): a re-run of one description replaces its earlier line. */
/** The records of a results file (JSON lines; a line cut short by a killed run is skipped). */
export async function readRecords(file: string): Promise<CorpusRecord[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as CorpusRecord];
      } catch {
        return [];
      }
    });
}

export function latest(records: CorpusRecord[]): Map<string, CorpusRecord> {
  const out = new Map<string, CorpusRecord>();
  for (const r of records) out.set(`${r.stage}:${r.id}`, r);
  return out;
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}
const secs = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '–');
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function outcomeTable(records: CorpusRecord[]): string[] {
  const count = (o: Outcome) => records.filter((r) => r.outcome === o).length;
  return [
    '| outcome | meaning | count | share |',
    '| --- | --- | ---: | ---: |',
    ...OUTCOMES.filter((o) => count(o) > 0).map(
      (o) => `| ${o} | ${OUTCOME_TEXT[o]} | ${count(o)} | ${pct(count(o), records.length)} |`,
    ),
    `| **all** | | **${records.length}** | |`,
  ];
}

function classTable(records: CorpusRecord[]): string[] {
  const classes = new Map<string, CorpusRecord[]>();
  for (const r of records.filter((x) => x.outcome !== 'ok')) {
    const key = classOf(r);
    classes.set(key, [...(classes.get(key) ?? []), r]);
  }
  if (classes.size === 0) return ['No failures.'];
  const rows = [...classes].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  return [
    '| # | class (outcome: first message, names and numbers taken out) | count | example (id: message) |',
    '| ---: | --- | ---: | --- |',
    ...rows.map(([key, rs], i) => {
      const ex = rs[0]!;
      return `| ${i + 1} | ${cell(key)} | ${rs.length} | \`${cell(ex.id)}\`: ${cell(ex.message ?? ex.outcome)} |`;
    }),
  ];
}

function timeTable(one: CorpusRecord[], two: CorpusRecord[]): string[] {
  const row = (label: string, values: number[]) =>
    `| ${label} | ${values.length} | ${secs(quantile(values, 0.5))} | ${secs(quantile(values, 0.95))} | ${secs(values.length ? Math.max(...values) : Number.NaN)} |`;
  const step = (name: string) =>
    one.map((r) => r.steps[name]).filter((v): v is number => typeof v === 'number');
  return [
    '| figure | descriptions | median | p95 | max |',
    '| --- | ---: | ---: | ---: | ---: |',
    row(
      'stage 1 (generate + tsc), wall per description',
      one.map((r) => r.ms),
    ),
    row('  generate', step('generate')),
    row('  tsc over the generated tree', step('tsc')),
    row(
      'stage 2 (contract suite + fuzz against the mock), wall',
      two.map((r) => r.ms),
    ),
  ];
}

export function renderCorpusReport(input: ReportInput): string {
  const all = [...latest(input.records).values()];
  const one = all.filter((r) => r.stage === 1);
  const two = all.filter((r) => r.stage === 2);
  const clean1 = one.filter((r) => r.outcome === 'ok').length;
  const clean2 = two.filter((r) => r.outcome === 'ok' || r.outcome === 'fuzz-failures').length;
  const crashes = all.filter((r) => r.outcome === 'generate-crash' || r.outcome === 'suite-crash');
  const notes = existsSync(input.notesFile) ? readFileSync(input.notesFile, 'utf8').trim() : '';
  const clean2Strict = two.filter((r) => r.outcome === 'ok').length;
  const faults = all.filter((r) => (r.toolkitFaults ?? 0) > 0 || r.outcome === 'toolkit-faults');
  const hangs = all.filter((r) => r.outcome === 'timeout');
  const refusedReadable = input.dereferenced
    ? one.filter((r) => r.outcome === 'description-refused' && input.dereferenced!.has(r.id))
    : undefined;
  const yes = (n: number, ok: boolean) => (n === 0 ? '–' : ok ? 'yes (on what ran)' : 'no');
  return [
    `## ${input.source.title}`,
    '',
    `Written by \`npm run corpus -- --corpus ${input.source.name}\` (bench/corpus/) from its results file. ${input.source.about}`,
    '',
    "- **Stage 1**, every description: `dataapi generate` into a scratch folder, then `tsc` over the generated tree with the project's compiler options, reading the runtime through its declaration files as a user's project does.",
    `- **Stage 2**, ${input.source.name === 'directory' ? `a fixed sample of ${input.sampleSize} (a shuffle with \`--seed ${input.sampleSeed}\`)` : `all ${input.sampleSize}`}: \`dataapi contract --dir <tree> --fuzz ${input.fuzz} --seed <seed>\`: the own contract suite against the embedded mock, and a short seeded fuzz run.`,
    '',
    '### Coverage of this record',
    '',
    `Stage 1: **${one.length} of ${input.total}** descriptions run (${pct(one.length, input.total)}); ${input.total - one.length} pending. Stage 2: **${two.length} of ${input.sampleSize}** of the sample run; ${Math.max(0, input.sampleSize - two.length)} pending. The figures below are over what has run, and say nothing about the rest.`,
    '',
    '### Targets',
    '',
    '| target | measured | met |',
    '| --- | --- | --- |',
    ...(refusedReadable
      ? [
          `| no description refused that swagger-parser's \`dereference\` reads | ${refusedReadable.length} refused of ${one.filter((r) => input.dereferenced!.has(r.id)).length} readable run${refusedReadable.length ? ` (${refusedReadable.map((r) => r.id).join(', ')})` : ''} | ${yes(one.length, refusedReadable.length === 0)} |`,
        ]
      : []),
    `| generate + tsc clean on >= 99% | ${clean1} of ${one.length} run (${pct(clean1, one.length)}) | ${yes(one.length, clean1 / one.length >= 0.99)} |`,
    `| own suite with 0 failures and no hang on >= 98% of the sample | ${clean2Strict} of ${two.length} run (${pct(clean2Strict, two.length)}; with fuzz findings counted clean: ${clean2}) | ${yes(two.length, clean2Strict / two.length >= 0.98)} |`,
    `| 0 toolkit faults | ${faults.length} description${faults.length === 1 ? '' : 's'} with toolkit faults | ${yes(all.length, faults.length === 0)} |`,
    `| no hang (killed at the time bound) | ${hangs.length} | ${yes(all.length, hangs.length === 0)} |`,
    `| no crash, no raw stack trace anywhere | ${crashes.length} crashes | ${yes(all.length, crashes.length === 0)} |`,
    '',
    '### Stage 1: generate + tsc',
    '',
    ...outcomeTable(one),
    '',
    '#### Failure classes',
    '',
    ...classTable(one),
    '',
    '### Stage 2: contract suite and fuzz against the embedded mock',
    '',
    ...(two.length ? outcomeTable(two) : ['Not run yet.']),
    '',
    ...(two.length ? ['#### Failure classes', '', ...classTable(two), ''] : []),
    '### Time per description',
    '',
    ...timeTable(one, two),
    '',
    'Wall times on a shared 2-core machine under `nice -n 10`, `--jobs 1`: they include waiting for the other work on it.',
    '',
    ...(notes ? [notes, ''] : []),
  ].join('\n');
}
