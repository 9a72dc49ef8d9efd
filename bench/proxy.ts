/**
 * Validation proxy overhead: the same request (air quality) sent to the mock directly, through
 * `dataapi proxy` (forwarding and judging every exchange) and through Prism's proxy (`prism proxy`,
 * which validates against the same description), each server in its own process, loaded by
 * autocannon in turns with the same settings.
 */
import path from 'node:path';
import { cpuLines } from './proxy-cpu.ts';
import { largeAnswer, startDataapiProxy, startFloor, trafficOf } from './proxy-large.ts';
import type { BenchContext, Section } from './lib/context.ts';
import { CONNECTIONS, pairedRatio, type LoadSummary } from './lib/load.ts';
import { pacedInTurns, type PacedRun } from './lib/paced-load.ts';
import {
  AIR_QUALITY,
  loadSeconds,
  loadTable,
  requireGeneratedMock,
  startMock,
  startPrism,
  withServers,
} from './lib/load-table.ts';
import { startServer } from './lib/servers.ts';
import { fmtRatio } from './lib/stats.ts';

export async function proxyOverhead(ctx: BenchContext): Promise<Section> {
  requireGeneratedMock(ctx);
  return withServers(async (servers) => {
    ctx.log('proxy: starting the mock, the forwarding floor, dataapi proxy, Prism proxy');
    const mock = await startMock(ctx, 'mock, direct');
    servers.push(mock);
    const floor = await startFloor(ctx, mock.url);
    servers.push(floor);
    const proxy = await startDataapiProxy(ctx, mock.url, path.join(ctx.work, 'proxy-reports'));
    servers.push(proxy);
    const prism = await startPrism(
      ctx,
      'Prism proxy',
      ['proxy', 'spec/openapi.yaml', mock.url],
      AIR_QUALITY,
    );
    servers.push(prism);
    // A run's share of the floor moves by a fifth from one run to the next on two shared cores:
    // more rounds than other sections, and the ratios taken round by round.
    const rounds = ctx.quick ? ctx.runs : 7;
    const table = await loadTable(ctx, [mock, floor, proxy, prism], AIR_QUALITY, undefined, rounds);
    const [d, f, p, q] = table.summaries as [LoadSummary, LoadSummary, LoadSummary, LoadSummary];
    const share = pairedRatio(p, f);
    const overPrism = pairedRatio(p, q);
    const perRound = p.runs.map((x, i) => `${Math.round((x / f.runs[i]!) * 100)}%`).join(', ');
    // Latency at a pace the floor and the proxy both carry: half what the proxy carried in full.
    const rate = Math.max(100, Math.round((p.rps * 0.5) / 100) * 100);
    ctx.log(`proxy: latency at ${rate} req/s, in turns`);
    const paced = await pacedInTurns(
      [mock, floor, proxy],
      AIR_QUALITY,
      rate,
      loadSeconds(ctx),
      ctx.runs,
    );
    const [pd, pf, pp] = [mock, floor, proxy].map((s) => paced.get(s)!) as [
      PacedRun,
      PacedRun,
      PacedRun,
    ];
    // Stopped, the proxy writes its reports: what it judged, and what it let through unjudged.
    await proxy.stop();
    const judging = await trafficOf(path.join(ctx.work, 'proxy-reports'));
    const findings = proxy
      .output()
      .split('\n')
      .filter((l) => /^[✗!] /.test(l)).length;
    const large = await largeAnswer(ctx, mock, servers);
    const verdicts = [
      {
        target: 'dataapi proxy throughput >= 70% of the forwarding-only floor',
        measured: `${Math.round(share * 100)}%`,
        met: share >= 0.7,
      },
      {
        target: 'dataapi proxy p50 <= floor + 0.3 ms',
        measured: `+${(p.p50 - f.p50).toFixed(2)} ms`,
        met: p.p50 <= f.p50 + 0.3,
      },
      {
        target: 'dataapi proxy p99 <= 1.5x the floor',
        measured: fmtRatio(p.p99 / f.p99),
        met: p.p99 <= 1.5 * f.p99,
      },
      {
        target: 'every exchange judged at that load',
        measured: `${judging.judged} of ${judging.exchanges} judged, ${judging.overloaded} passed through unjudged`,
        met: judging.exchanges > 0 && judging.judged === judging.exchanges,
      },
      {
        target: `at ${rate} req/s (a pace both carry): dataapi proxy p50 <= floor + 0.3 ms`,
        measured: `+${(pp.p50 - pf.p50).toFixed(2)} ms`,
        met: pp.p50 <= pf.p50 + 0.3 && pp.errors === 0,
      },
      {
        target: `at ${rate} req/s: dataapi proxy p99 <= 1.5x the floor`,
        measured: fmtRatio(pp.p99 / pf.p99),
        met: pp.p99 <= 1.5 * pf.p99 && pp.errors === 0,
      },
      {
        target: "dataapi proxy >= 5x Prism's proxy",
        measured: fmtRatio(overPrism),
        met: overPrism >= 5,
      },
      ...large.verdicts,
    ];
    return {
      id: 'proxy',
      title: '12. Validation proxy overhead (air quality)',
      body: [
        `Request: \`GET ${AIR_QUALITY}\`, autocannon ${CONNECTIONS} connections, pipelining 1, ${loadSeconds(ctx)} s per run, ${rounds} rounds of runs in turns after a warm-up round (medians), on loopback. Upstream: \`generated/mock\` (\`bench/servers/mock.ts\`, rate limits off). Forwarding only: \`bench/servers/forward.ts\`, node:http both ways with a keep-alive agent, bodies piped, nothing copied or judged: the floor any proxy on this stack adds. dataapi proxy: \`dataapi proxy --upstream <mock>\` (forwards as the floor does, keeps a copy of each exchange and judges it with the contract's checks on its judging threads; findings printed during the load: ${findings}). Prism: \`prism proxy spec/openapi.yaml <mock> -v silent\`.`,
        '',
        ...table.lines,
        '',
        `dataapi proxy: throughput ${Math.round(share * 100)}% of the forwarding floor (the median of ${rounds} rounds' ratios, each of a run in turn with the floor's: ${perRound}; ${Math.round((p.rps / d.rps) * 100)}% of direct calls); p50 +${(p.p50 - f.p50).toFixed(2)} ms and p99 ${fmtRatio(p.p99 / f.p99)} over the floor; judged ${judging.judged} of ${judging.exchanges} exchanges (unjudged: ${judging.overloaded} while the judges were behind); ${fmtRatio(overPrism)} Prism's proxy (median of the rounds' ratios).`,
        '',
        `Latency at a set pace: ${rate} requests per second (half what dataapi proxy carried at full load), sent evenly over ${CONNECTIONS} keep-alive connections by \`bench/lib/paced-load.ts\`, each request timed from the moment it is written to the end of its answer; ${ctx.runs} runs of ${loadSeconds(ctx)} s per server in turns after a warm-up run, medians. At full load, ${CONNECTIONS} connections always busy make the p50 about ${CONNECTIONS} / req/s (Little's law), so there the p50 over the floor follows from the throughput; at a pace both carry, it is what each request waits for the proxy itself, the latency QA observes through it during a load test that does not saturate it.`,
        '',
        '| server | asked req/s | answered req/s | p50 | p99 | not 200 or failed |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        ...(
          [
            ['mock, direct', pd],
            ['forwarding only (floor)', pf],
            ['dataapi proxy', pp],
          ] as const
        ).map(
          ([label, r]) =>
            `| ${label} | ${r.rate} | ${Math.round(r.achieved)} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.errors} |`,
        ),
        '',
        `At ${rate} req/s dataapi proxy adds ${(pp.p50 - pf.p50).toFixed(2)} ms at p50 over the floor (${(pp.p50 - pd.p50).toFixed(2)} ms over direct calls), and its p99 is ${fmtRatio(pp.p99 / pf.p99)} the floor's.`,
        '',
        ...cpuLines(
          d,
          f,
          p,
          verdicts.slice(0, 3).every((v) => v.met),
        ),
        '',
        ...large.lines,
        '',
        'Reproduce: `npm run bench -- --only proxy`.',
      ].join('\n'),
      verdicts,
    };
  });
}
