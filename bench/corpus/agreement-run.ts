/**
 * `npm run corpus -- --agreement`: agreement by construction (agreement.ts) over every description
 * of a corpus, in worker processes (agreement-pool.ts), one JSON line per description appended to a
 * results file (bench/.work/corpus/agreement-NAME.jsonl): a rerun skips what is recorded, so a run
 * stopped at any point resumes. The disagreements, grouped by class, go into docs/corpus.md (between
 * `<!-- agreement:NAME -->` markers) from the records, with how much of the corpus they cover.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { knownDisagreements } from './agreement-known.ts';
import { killWorker, runPool, workers } from './agreement-pool.ts';
import {
  agreementSection,
  agreementTodo,
  latestAgreement,
  readAgreementRecords,
  withSection,
  type AgreementRecord,
} from './agreement-records.ts';
import type { AgreementJob } from './agreement-worker.ts';
import { directorySource, secondSource, type CorpusSource } from './sources.ts';
import { sample, STAGE2_SAMPLE } from './stage2-sample.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = path.join(ROOT, 'bench/.work/corpus');
const SEED = 48;

const flag = (f: string) =>
  process.argv.includes(f) ? process.argv[process.argv.indexOf(f) + 1] : undefined;
const has = (f: string) => process.argv.includes(f);
const int = (f: string, fallback: number) => {
  const n = Number(flag(f) ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${f} must be an integer >= 1`);
  return n;
};
const name = flag('--corpus') ?? 'second';
const source: CorpusSource =
  name === 'directory' ? directorySource(ROOT, WORK) : await secondSource(ROOT, WORK);
const results = path.resolve(
  flag('--results') ?? path.join(WORK, `agreement-${source.name}.jsonl`),
);
const jobs = int('--jobs', 1);
const timeoutS = int('--timeout', 300);
const limit = int('--limit', source.ids.length);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The docs section from every record of the results file; true when a class is not known. */
async function report(): Promise<boolean> {
  const section = agreementSection({
    name: source.name,
    title: source.title,
    seed: SEED,
    ids: source.ids,
    records: latestAgreement(await readAgreementRecords(results)),
    known: knownDisagreements(),
    timeoutS,
  });
  const out = path.join(ROOT, 'docs/corpus.md');
  const doc = withSection(await readFile(out, 'utf8'), source.name, section.text);
  const prettier = await import('prettier');
  await writeFile(
    out,
    await prettier.format(doc, { ...((await prettier.resolveConfig(out)) ?? {}), filepath: out }),
  );
  log(`agreement ${source.name}: wrote docs/corpus.md from ${path.relative(ROOT, results)}`);
  return section.unknown;
}

if (has('--report-only')) {
  process.exitCode = (await report()) ? 1 : 0;
} else {
  // Some ids only (--ids): run again even if recorded, their classes said here, the docs kept.
  const listed = flag('--ids')
    ?.split(',')
    .map((s) => s.trim().replace(/\.json$/, ''))
    .filter(Boolean);
  const unknownIds = listed?.filter((id) => !source.ids.includes(id)) ?? [];
  if (unknownIds.length) throw new Error(`unknown description id ${unknownIds.join(', ')}`);
  // The stage-2 sample first (directory), then the rest; smallest first within each, so that
  // a run stopped early has covered the most descriptions.
  const size = (id: string) => statSync(source.specOf(id)).size;
  const bySize = (ids: string[]) =>
    ids
      .map((id) => ({ id, size: size(id) }))
      .sort((a, b) => a.size - b.size || (a.id < b.id ? -1 : 1))
      .map((x) => x.id);
  const first = new Set(
    source.name === 'directory' ? sample(source.ids, STAGE2_SAMPLE.size, STAGE2_SAMPLE.seed) : [],
  );
  let chosen = listed ?? [
    ...bySize(source.ids.filter((id) => first.has(id))),
    ...(has('--stage2-sample') ? [] : bySize(source.ids.filter((id) => !first.has(id)))),
  ];
  const shard = flag('--shard');
  if (shard) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new Error('--shard must be i/n with 1 <= i <= n');
    chosen = chosen.filter((_, i) => i % Number(m[2]) === Number(m[1]) - 1);
  }
  const done = latestAgreement(await readAgreementRecords(results));
  const todo = (listed ? chosen : agreementTodo(chosen, done)).slice(0, limit);
  log(
    `agreement ${source.name}: ${chosen.length} chosen, ${todo.length} to run (${chosen.filter((id) => done.has(id)).length} recorded) with --jobs ${jobs}, ${timeoutS} s each; results: ${path.relative(ROOT, results)}`,
  );
  await mkdir(path.dirname(results), { recursive: true });
  // Stopped (Ctrl-C, kill): the workers go too; what is recorded stays, the rest runs on resume.
  const stop = () => {
    for (const w of [...workers]) killWorker(w);
    log(`agreement ${source.name}: stopped; rerun the same command to resume`);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const ran: AgreementRecord[] = [];
  await runPool<AgreementJob>({
    ids: todo,
    jobs,
    timeoutMs: timeoutS * 1000,
    spawnWorker: () =>
      spawn(
        process.execPath,
        ['--conditions=dataapi-source', '--import', 'tsx', 'bench/corpus/agreement-worker.ts'],
        { cwd: ROOT, detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      ),
    job: (id) => ({ id, spec: source.specOf(id), seed: SEED }),
    onRecord: async (r) => {
      await appendFile(results, `${JSON.stringify(r)}\n`);
      ran.push(r);
      log(
        `agreement ${source.name}: ${ran.length}/${todo.length} ${r.id}: ${r.outcome}, ${r.findings.length} findings, ${(r.ms / 1000).toFixed(1)} s`,
      );
    },
  });
  if (listed) {
    const classes = new Map<string, { count: number; ids: Set<string>; known: boolean }>();
    for (const r of ran)
      for (const f of r.findings) {
        const c = classes.get(f.class) ?? { count: 0, ids: new Set(), known: true };
        c.count++;
        c.ids.add(r.id);
        c.known &&= f.known;
        classes.set(f.class, c);
      }
    const rows = [...classes].sort((a, b) => b[1].count - a[1].count);
    for (const [k, c] of rows) log(`${c.count}\t${c.ids.size}\t${c.known ? 'known' : 'NEW'}\t${k}`);
    process.exitCode = rows.some(([, c]) => !c.known) ? 1 : 0;
  } else process.exitCode = (await report()) ? 1 : 0;
}
