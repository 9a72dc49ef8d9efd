/**
 * Section 10's outside yardstick: dataapi's suite of Box, unchanged, sent to two mocks of the same
 * description, each in its own process: `dataapi mock --spec` and Prism's `prism mock`. The same
 * requests on the client side, so the difference is the mock's: its start, its CPU per request and
 * the time the suite waits. Limited to every 12th of Box's operations (25 of 296): the suite
 * paces each operation to its limit, and the whole of it twice more would take longer than the
 * rest of the benchmarks together.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from './lib/context.ts';
import { startPrism } from './lib/load-table.ts';
import { timed } from './lib/proc.ts';
import { startServer, type RunningServer } from './lib/servers.ts';
import { fmtInt, fmtMs, fmtRatio, median } from './lib/stats.ts';

interface Run {
  ms: number;
  /** CPU of the suite's process (GNU time), ms. */
  suiteCpuMs: number;
  /** CPU the mock's process used during the run, ms. */
  mockCpuMs: number;
  requests: number;
  passed: number;
  failed: number;
}

export interface Yardstick {
  lines: string[];
  /** Prism's suite wall time per request against dataapi's mock's. */
  wallRatio: number;
  /** Prism's CPU per request against dataapi's mock's. */
  cpuRatio: number;
}

const EVERY = 12;

/**
 * Every 12th operation of the model, in description order (a fixed, spread-out subset), and the
 * rate limit the suite paces operations without a declared one to.
 */
async function subset(suite: string): Promise<{ only: string[]; pace: string }> {
  const model = JSON.parse(await readFile(path.join(suite, 'generated', 'model.json'), 'utf8')) as {
    operations: { id: string }[];
    defaultRateLimit?: { limit: number; per: string };
  };
  const d = model.defaultRateLimit;
  return {
    only: model.operations.filter((_, i) => i % EVERY === 0).map((o) => o.id),
    pace: d ? `${d.limit} per ${d.per}` : 'none',
  };
}

export async function contractYardstick(
  ctx: BenchContext,
  box: { spec: string; operations: number },
  suite: string,
): Promise<Yardstick> {
  const { only, pace } = await subset(suite);
  const servers: RunningServer[] = [];
  try {
    ctx.log(`  yardstick: dataapi mock and Prism mock of ${box.spec} (${only.length} operations)`);
    const t0 = performance.now();
    const dataapi = await startServer(
      'dataapi mock',
      process.execPath,
      ['bin/dataapi.js', 'mock', '--spec', box.spec, '--port', '0'],
      { cwd: ctx.root, ready: /listening on (http:\/\/\S+)/, timeoutMs: 300_000 },
    );
    const dataapiStart = performance.now() - t0;
    servers.push(dataapi);
    const t1 = performance.now();
    // Any path answers once Prism listens (404 for one it does not serve).
    const prism = await startPrism(ctx, 'Prism mock', ['mock', box.spec], '/');
    const prismStart = performance.now() - t1;
    servers.push(prism);
    const once = async (mock: RunningServer, round: number): Promise<Run> => {
      const results = path.join(ctx.work, `yardstick-${mock === prism ? 'prism' : 'dataapi'}.json`);
      const cpu0 = await mock.cpuSeconds();
      const run = await timed(
        process.execPath,
        [
          'bin/dataapi.js',
          'contract',
          '--spec',
          box.spec,
          '--base-url',
          mock.url,
          '--allow-writes',
          '--only',
          only.join(','),
          '--reporter',
          'dot',
          '--results',
          results,
        ],
        {
          cwd: ctx.root,
          env: { ...process.env, DATAAPI_APPKEY: 'mock-appkey' },
          timeoutMs: 20 * 60_000,
        },
      );
      const mockCpuMs = ((await mock.cpuSeconds()) - cpu0) * 1000;
      // Exit 1 is a failed check, which Prism's answers may earn; anything else is broken.
      if (run.code !== 0 && run.code !== 1)
        throw new Error(`the suite against ${mock.label} exited with ${run.code}: ${run.output}`);
      const { summary } = JSON.parse(await readFile(results, 'utf8')) as {
        summary: { passed: number; failed: number; requests: number };
      };
      ctx.log(
        `  yardstick round ${round}: against ${mock.label} ${fmtMs(run.ms)}, ${summary.requests} requests`,
      );
      return { ms: run.ms, suiteCpuMs: run.cpuMs ?? Number.NaN, mockCpuMs, ...summary };
    };
    // One round: each run is paced to the operations' limits, so it is long and steady.
    const rounds = 1;
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let r = 1; r <= rounds; r++) {
      ours.push(await once(dataapi, r));
      theirs.push(await once(prism, r));
    }
    const med = (runs: Run[], f: (r: Run) => number) => median(runs.map(f));
    const perRequest = (runs: Run[], f: (r: Run) => number) => med(runs, (r) => f(r) / r.requests);
    const wall = (runs: Run[]) => perRequest(runs, (r) => r.ms);
    const mockCpu = (runs: Run[]) => perRequest(runs, (r) => r.mockCpuMs);
    const cell = (runs: Run[], f: (r: Run) => number, fmt: (n: number) => string) =>
      fmt(med(runs, f));
    const ms2 = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : 'n/a');
    const wallRatio = wall(theirs) / wall(ours);
    const cpuRatio = mockCpu(theirs) / mockCpu(ours);
    const lines = [
      `Outside yardstick, measured in this run: the same suite, limited to every ${EVERY}th of Box's operations in description order (${only.length} of ${box.operations}, the same \`--only\` list for both), sent with \`--base-url\` and \`--allow-writes\` to two mocks of \`${box.spec}\`, each in its own process: \`node bin/dataapi.js mock --spec ${box.spec} --port 0\` and \`npx prism mock ${box.spec} -v silent\` (Prism ${prism.url}). ${rounds === 1 ? 'One run each' : `Median of ${rounds} rounds, the two taking turns`}. The suite sends each mock the same requests except those an earlier failure makes pointless, so the per-request figures are the comparable ones; it paces every operation to its rate limit (Box declares none, so the model's default: ${pace}) against either mock, which bounds its wall time alike, so the mock's own CPU per request is the comparison of the two mocks.`,
      '',
      '| figure | dataapi mock | Prism mock | Prism / dataapi |',
      '| --- | ---: | ---: | ---: |',
      `| start, spawn to listening | ${fmtMs(dataapiStart)} | ${fmtMs(prismStart)} | ${fmtRatio(prismStart / dataapiStart)} |`,
      `| suite wall time | ${cell(ours, (r) => r.ms, fmtMs)} | ${cell(theirs, (r) => r.ms, fmtMs)} | ${fmtRatio(med(theirs, (r) => r.ms) / med(ours, (r) => r.ms))} |`,
      `| requests sent | ${cell(ours, (r) => r.requests, fmtInt)} | ${cell(theirs, (r) => r.requests, fmtInt)} | |`,
      `| checks passed / failed | ${cell(ours, (r) => r.passed, fmtInt)} / ${cell(ours, (r) => r.failed, fmtInt)} | ${cell(theirs, (r) => r.passed, fmtInt)} / ${cell(theirs, (r) => r.failed, fmtInt)} | |`,
      `| suite wall time per request | ${ms2(wall(ours))} | ${ms2(wall(theirs))} | ${fmtRatio(wallRatio)} |`,
      `| mock CPU per request (its process tree, from /proc) | ${ms2(mockCpu(ours))} | ${ms2(mockCpu(theirs))} | ${fmtRatio(cpuRatio)} |`,
      `| suite CPU per request (GNU time) | ${ms2(perRequest(ours, (r) => r.suiteCpuMs))} | ${ms2(perRequest(theirs, (r) => r.suiteCpuMs))} | |`,
      '',
      "A failed check against either mock is the suite judging that mock's answers by the description.",
    ];
    return { lines, wallRatio, cpuRatio };
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}
