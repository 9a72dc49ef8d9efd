/**
 * The mock of GitHub's description (issue 17): how long `dataapi mock --spec` takes to listen,
 * and the whole contract suite of that description against its embedded mock.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { ensureOk, suiteSummary, timed, treeRssKb, type TimedRun } from './lib/proc.ts';
import { fmtMiB, fmtMs, maxOf, median, minOf } from './lib/stats.ts';
import { GITHUB_SPEC } from './github.ts';

const MOCK_ARGV = ['bin/dataapi.js', 'mock', '--spec', GITHUB_SPEC, '--port', '0'];
const TARGET_MS = 5000;

interface Start {
  ms: number;
  /** CPU time of the process until it listened (from /proc), when known. */
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

/** Starts the mock, times it until it says it listens, then stops it. */
async function startOnce(root: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, MOCK_ARGV, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-2000)));
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output = (output + d.toString()).slice(-2000);
      if (/listening on/.test(output)) resolve(performance.now() - started);
    });
    child.on('close', (code) => reject(new Error(`mock exited with ${code}:\n${output}`)));
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 5 * 60_000);
  try {
    const ms = await listening;
    const cpuMs = child.pid !== undefined ? await cpuOf(child.pid) : undefined;
    const rssKb = child.pid !== undefined ? await treeRssKb(child.pid) : Number.NaN;
    return { ms, rssKb, ...(cpuMs !== undefined ? { cpuMs } : {}) };
  } finally {
    clearTimeout(killer);
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
  }
}

/** 4b. The mock of GitHub's description: start-up, and the contract suite against it. */
export async function githubMock(ctx: BenchContext): Promise<Section> {
  ctx.log(`mock: ${GITHUB_SPEC}`);
  await readFile(path.resolve(ctx.root, GITHUB_SPEC)); // the input in the page cache
  for (let w = 0; w < ctx.warmup; w++) await startOnce(ctx.root);
  const starts: Start[] = [];
  for (let r = 0; r < ctx.runs; r++) {
    const s = await startOnce(ctx.root);
    ctx.log(`  run ${r + 1}/${ctx.runs} mock start: ${fmtMs(s.ms)}`);
    starts.push(s);
  }
  const startMs = median(starts.map((s) => s.ms));
  const cpu = median(starts.map((s) => s.cpuMs ?? Number.NaN));
  const contract = await contractRun(ctx);
  return {
    id: 'mock-github',
    title: "4b. The mock of GitHub's description, and its contract suite",
    body: [
      `\`node ${MOCK_ARGV.join(' ')}\` from a cold process until it prints \`listening on\` (each operation's examples are checked, and its schemas compiled, when it is first asked for; \`--strict-examples\` checks all of them first). Median of ${starts.length} run(s): ${fmtMs(startMs)} (min ${fmtMs(minOf(starts.map((s) => s.ms)))}, max ${fmtMs(maxOf(starts.map((s) => s.ms)))}); CPU time until listening ${fmtMs(cpu)}; memory when listening ${fmtMiB(maxOf(starts.map((s) => s.rssKb)))}.`,
      '',
      contract,
    ].join('\n'),
    verdicts: [
      {
        target: 'GitHub: the mock starts in <= 5 s',
        measured: `${fmtMs(startMs)} (CPU time ${fmtMs(cpu)}; ${os.cpus().length} cores)`,
        met: startMs <= TARGET_MS,
      },
    ],
  };
}

/** The whole suite of GitHub's description against its embedded mock: wall time and memory. */
async function contractRun(ctx: BenchContext): Promise<string> {
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
  return [
    `**Contract suite** against the embedded mock: \`node ${argv.join(' ')} --results ${results}\` (its suite generated beforehand; a cold process each run; exit code ${last?.code}: 1 means some checks failed, which is a finding about the description or the mock, not a failure of the run). Last run: ${summary}.`,
    '',
    '| figure | value |',
    '| --- | ---: |',
    `| wall time (median of ${runs.length}) | ${fmtMs(median(times))} |`,
    `| CPU time (median, GNU time) | ${fmtMs(median(runs.map((r) => r.cpuMs ?? Number.NaN)))} |`,
    `| peak memory, whole process tree (summed RSS sampled every 50 ms) | ${fmtMiB(maxOf(runs.map((r) => r.treeRssKb ?? Number.NaN)))} |`,
    `| peak memory, largest single process (GNU time) | ${fmtMiB(maxOf(runs.map((r) => r.maxRssKb ?? Number.NaN)))} |`,
  ].join('\n');
}
