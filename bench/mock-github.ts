/**
 * The mock of GitHub's description (issue 17): how long `dataapi mock --spec` takes to listen,
 * and the whole contract suite of that description against its embedded mock.
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { ensureOk, suiteSummary, timed, treeRssKb, type TimedRun } from './lib/proc.ts';
import { fmtMiB, fmtMs, maxOf, median, minOf, type Verdict } from './lib/stats.ts';
import { GITHUB_SPEC } from './github.ts';
import { specModelBase } from '../scripts/spec-model.ts';

const mockArgv = (root: string, bin = 'bin/dataapi.js') => [
  bin,
  'mock',
  '--spec',
  path.join(root, GITHUB_SPEC),
  '--port',
  '0',
];
const TARGET_MS = 1500;
export const MOCK_TARGET =
  'GitHub: the mock answers its first request <= 1.5 s after it is started';
export const CONTRACT_TARGET =
  'GitHub: contract run against its own mock <= 60 s and <= 1 GiB (all processes)';
/** The figures of BENCHMARKS.md before issue 29 (2026-11-24), shown beside today's. */
const EARLIER = { listenMs: 2898, contractMs: 159_900, contractMiB: 2176 };

interface Start {
  /** Until it printed `listening on`. */
  ms: number;
  /** Until its first answer (GET /, GitHub's root operation) came back. */
  firstMs: number;
  /** CPU time of the process until it answered (from /proc), when known. */
  cpuMs?: number;
  rssKb: number;
}

/** CPU time (user + system) of a process so far, from /proc/<pid>/stat (Linux only). */
async function cpuOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields) return undefined;
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** Starts a checkout's mock, times it until it listens and until it answers, then stops it. */
async function startOnce(root: string, checkout: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, mockArgv(root, path.join(checkout, 'bin/dataapi.js')), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-2000)));
  const listening = new Promise<{ ms: number; url: string }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-2000);
      const m = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (m) resolve({ ms: performance.now() - started, url: m[1]! });
    });
    child.on('close', (code) => reject(new Error(`mock exited with ${code}:\n${output}`)));
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
  try {
    const { ms, url } = await listening;
    const res = await fetch(`${url}/`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`the mock answered GET / with ${res.status}`);
    const firstMs = performance.now() - started;
    const cpuMs = child.pid !== undefined ? await cpuOf(child.pid) : undefined;
    const rssKb = child.pid !== undefined ? await treeRssKb(child.pid) : Number.NaN;
    return { ms, firstMs, rssKb, ...(cpuMs !== undefined ? { cpuMs } : {}) };
  } finally {
    clearTimeout(killer);
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
  }
}

const startRow = (label: string, starts: Start[]) =>
  `| ${label} | ${fmtMs(median(starts.map((s) => s.firstMs)))} (${fmtMs(minOf(starts.map((s) => s.firstMs)))} – ${fmtMs(maxOf(starts.map((s) => s.firstMs)))}) | ${fmtMs(median(starts.map((s) => s.ms)))} | ${fmtMs(median(starts.map((s) => s.cpuMs ?? Number.NaN)))} | ${fmtMiB(maxOf(starts.map((s) => s.rssKb)))} |`;

/**
 * 4b. The mock of GitHub's description: start-up, and the contract suite against it. With
 * BENCH_BEFORE=<checkout of an earlier commit, built> that checkout's mock takes turns with this
 * one (the reference in the same run on a shared machine).
 */
export async function githubMock(ctx: BenchContext): Promise<Section> {
  ctx.log(`mock: ${GITHUB_SPEC}`);
  const before = process.env.BENCH_BEFORE;
  await readFile(path.resolve(ctx.root, GITHUB_SPEC)); // the input in the page cache
  // The first start without the model an earlier start kept (scripts/spec-model.ts): it loads,
  // validates and normalises the description, and keeps the model for the starts measured below.
  const base = specModelBase(GITHUB_SPEC, ctx.root);
  await rm(`${base}.stamp.json`, { force: true });
  const cold = await startOnce(ctx.root, ctx.root);
  ctx.log(`  mock: first answer without a kept model ${fmtMs(cold.firstMs)}`);
  for (let w = 0; w < ctx.warmup; w++) await startOnce(ctx.root, ctx.root);
  const starts: Start[] = [];
  const earlier: Start[] = [];
  for (let r = 0; r < ctx.runs; r++) {
    if (before) earlier.push(await startOnce(ctx.root, path.resolve(before)));
    const s = await startOnce(ctx.root, ctx.root);
    ctx.log(
      `  run ${r + 1}/${ctx.runs} mock: first answer ${fmtMs(s.firstMs)}${before ? ` (before: ${fmtMs(earlier.at(-1)!.firstMs)})` : ''}`,
    );
    starts.push(s);
  }
  const firstMs = median(starts.map((s) => s.firstMs));
  const beforeMs = before ? median(earlier.map((s) => s.firstMs)) : undefined;
  const contract = await contractRun(ctx);
  return {
    id: 'mock-github',
    title: "4b. The mock of GitHub's description, and its contract suite",
    body: [
      `\`node bin/dataapi.js mock --spec ${GITHUB_SPEC} --port 0\` from a cold process until it prints \`listening on\` and until its first answer (\`GET /\`, GitHub's root operation, 200) comes back. Each operation's examples are checked, and its schemas compiled, when it is first asked for, and the others' in the background once it listens (their findings printed as they come); \`--strict-examples\` checks all of them first. The first start of a description keeps its model in node_modules/.cache/dataapi (keyed by the description's files and the toolkit's sources); later starts read it instead of loading the description (the first row: a start without it). ${ctx.runs} run(s)${before ? `, taking turns with the mock of \`${before}\` (an earlier commit, built: the reference in the same run)` : ' (set BENCH_BEFORE to a built checkout of an earlier commit to measure it in turns)'}. Before issue 29, BENCHMARKS.md measured ${fmtMs(EARLIER.listenMs)} until \`listening on\`.`,
      '',
      '| mock | first answer, median (min – max) | listening, median | CPU time until answered | memory when answered |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...(before ? [startRow('before (BENCH_BEFORE)', earlier)] : []),
      startRow('this checkout, first start (no kept model)', [cold]),
      startRow('this checkout', starts),
      '',
      contract.text,
    ].join('\n'),
    verdicts: [
      {
        target: MOCK_TARGET,
        measured: `${fmtMs(firstMs)} (first start, no kept model: ${fmtMs(cold.firstMs)})${beforeMs !== undefined ? ` (before: ${fmtMs(beforeMs)} in the same run)` : ''}; earlier ${fmtMs(EARLIER.listenMs)} until listening; ${os.cpus().length} cores`,
        met: firstMs <= TARGET_MS,
      },
      contract.verdict,
    ],
  };
}

/** The whole suite of GitHub's description against its embedded mock: wall time and memory. */
async function contractRun(ctx: BenchContext): Promise<{ text: string; verdict: Verdict }> {
  const results = path.relative(ctx.root, path.join(ctx.work, 'github-contract-results.json'));
  const argv = ['bin/dataapi.js', 'contract', '--spec', GITHUB_SPEC, '--reporter', 'dot'];
  const run = async (extra: string[]) => {
    const r = await timed(process.execPath, [...argv, ...extra, '--results', results], {
      cwd: ctx.root,
      sampleTree: true,
      timeoutMs: 60 * 60_000,
    });
    // 1 is a run with failed checks (a finding, measured all the same); 2 is bad input.
    return r.code === 1 ? r : ensureOk('dataapi contract --spec', r);
  };
  // The description's suite is generated into node_modules/.cache/dataapi by a first, short run
  // (generation has its own figures); the measured runs reuse it.
  ctx.log('  contract --spec: generating its suite');
  await run(['--only', 'metaRoot']);
  const runs: TimedRun[] = [];
  // The longest run of the benchmarks (minutes each): two measured runs keep a whole run short.
  for (let r = 0; r < Math.min(ctx.runs, 2); r++) {
    const timedRun = await run([]);
    ctx.log(`  run ${r + 1} contract --spec: ${fmtMs(timedRun.ms)}`);
    runs.push(timedRun);
  }
  const last = runs.at(-1);
  const summary = suiteSummary(last?.output ?? '') ?? 'no summary printed';
  const times = runs.map((r) => r.ms);
  const wall = median(times);
  const treeKb = maxOf(runs.map((r) => r.treeRssKb ?? Number.NaN));
  const verdict: Verdict = {
    target: CONTRACT_TARGET,
    measured: `${fmtMs(wall)}, ${fmtMiB(treeKb)} (earlier ${fmtMs(EARLIER.contractMs)}, ${EARLIER.contractMiB} MiB)`,
    met: Number.isFinite(treeKb) ? wall <= 60_000 && treeKb <= 1024 * 1024 : undefined,
  };
  const text = [
    `**Contract suite** against the embedded mock: \`node ${argv.join(' ')} --results ${results}\` (its suite generated beforehand; a cold process each run; exit code ${last?.code}: 1 means some checks failed, which is a finding about the description or the mock, not a failure of the run). Last run: ${summary}.`,
    '',
    '| figure | value |',
    '| --- | ---: |',
    `| wall time (median of ${runs.length}) | ${fmtMs(median(times))} |`,
    `| CPU time (median, GNU time) | ${fmtMs(median(runs.map((r) => r.cpuMs ?? Number.NaN)))} |`,
    `| peak memory, whole process tree (summed RSS sampled every 50 ms) | ${fmtMiB(maxOf(runs.map((r) => r.treeRssKb ?? Number.NaN)))} |`,
    `| peak memory, largest single process (GNU time) | ${fmtMiB(maxOf(runs.map((r) => r.maxRssKb ?? Number.NaN)))} |`,
    '',
    `Before issue 29 (BENCHMARKS.md, 2026-11-24): ${fmtMs(EARLIER.contractMs)} wall, ${EARLIER.contractMiB} MiB (8 workers, each evaluating the 10 MB model.ts).`,
  ].join('\n');
  return { text, verdict };
}
