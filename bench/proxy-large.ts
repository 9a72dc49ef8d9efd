/**
 * The proxy on a large answer: the air-quality answer with its list grown to just under the
 * 1 MiB judging limit (every exchange is judged in full), served as prepared bytes by a bare
 * route, loaded direct, through the forwarding-only floor and through `dataapi proxy`. Forwarding
 * must keep pace with the floor; judging may fall behind, and then says how many it passed over.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContractRunResult, TrafficJudging } from '../contract-tests/results.ts';
import type { BenchContext } from './lib/context.ts';
import type { Verdict } from './lib/stats.ts';
import type { LoadSummary } from './lib/load.ts';
import { AIR_QUALITY, loadTable, sampleAnswer, startBare } from './lib/load-table.ts';
import { startServer, type RunningServer } from './lib/servers.ts';

/** Just under the judging limit (1 MiB), so that every judged exchange is judged whole. */
const SIZE = 1000 * 1000;

export async function startFloor(ctx: BenchContext, upstream: string): Promise<RunningServer> {
  return startServer(
    'forwarding only (floor)',
    process.execPath,
    ['--import', 'tsx', 'bench/servers/forward.ts'],
    { cwd: ctx.root, env: { ...process.env, BENCH_UPSTREAM: upstream } },
  );
}

export async function startDataapiProxy(
  ctx: BenchContext,
  upstream: string,
  reportDir: string,
): Promise<RunningServer> {
  return startServer(
    'dataapi proxy',
    process.execPath,
    ['bin/dataapi.js', 'proxy', '--upstream', upstream, '--port', '0', '--report-dir', reportDir],
    { cwd: ctx.root, ready: /dataapi proxy: (http:\/\/\S+) ->/ },
  );
}

/** The proxy's own count of what it judged (its results file, written when it stopped). */
export async function trafficOf(dir: string): Promise<TrafficJudging> {
  const result = JSON.parse(
    await readFile(path.join(dir, 'contract-results.json'), 'utf8'),
  ) as ContractRunResult;
  if (!result.traffic) throw new Error(`${dir}/contract-results.json has no traffic counts`);
  return result.traffic;
}

export async function largeAnswer(
  ctx: BenchContext,
  mock: RunningServer,
  servers: RunningServer[],
): Promise<{ lines: string[]; verdicts: Verdict[] }> {
  ctx.log('proxy: the large answer (just under 1 MiB)');
  const answer = await sampleAnswer(mock, AIR_QUALITY);
  const body = JSON.parse(answer.text) as { Data: unknown[]; DataStatus: Record<string, unknown> };
  const item = body.Data[0];
  while (JSON.stringify(body).length + JSON.stringify(item).length + 1 < SIZE) body.Data.push(item);
  body.DataStatus.DataTotalCount = body.Data.length;
  const bare = await startBare(
    ctx,
    { text: JSON.stringify(body), contentType: answer.contentType },
    'proxy-large.json',
  );
  servers.push(bare);
  const floor = await startFloor(ctx, bare.url);
  servers.push(floor);
  const reports = path.join(ctx.work, 'proxy-large-reports');
  const proxy = await startDataapiProxy(ctx, bare.url, reports);
  servers.push(proxy);
  const table = await loadTable(ctx, [bare, floor, proxy], AIR_QUALITY);
  const [, f, p] = table.summaries as [LoadSummary, LoadSummary, LoadSummary];
  await proxy.stop();
  const t = await trafficOf(reports);
  return {
    lines: [
      `A large answer: the same request answered by a bare route (\`bench/servers/bare.ts\`) with the air-quality answer's list grown to ${JSON.stringify(body).length.toLocaleString('en')} bytes (${body.Data.length} items, just under the 1 MiB judging limit, so a judged exchange is judged whole).`,
      '',
      ...table.lines,
      '',
      `dataapi proxy: throughput ${Math.round((p.rps / f.rps) * 100)}% of the floor; judged ${t.judged} of ${t.exchanges} exchanges, ${t.overloaded} passed through unjudged while the judges were behind.`,
    ],
    verdicts: [
      {
        target: 'large answer: dataapi proxy throughput >= 70% of the forwarding-only floor',
        measured: `${Math.round((p.rps / f.rps) * 100)}% (judged ${t.judged} of ${t.exchanges})`,
        met: p.rps >= 0.7 * f.rps,
      },
    ],
  };
}
