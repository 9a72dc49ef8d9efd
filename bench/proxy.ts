/**
 * Validation proxy overhead: the same request (air quality) sent to the mock directly, through
 * `dataapi proxy` (forwarding and judging every exchange) and through Prism's proxy (`prism proxy`,
 * which validates against the same description), each server in its own process, loaded by
 * autocannon in turns with the same settings.
 */
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { CONNECTIONS, type LoadSummary } from './lib/load.ts';
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
    ctx.log('proxy: starting the mock, dataapi proxy, Prism proxy');
    const mock = await startMock(ctx, 'mock, direct');
    servers.push(mock);
    const proxy = await startServer(
      'dataapi proxy',
      process.execPath,
      [
        'bin/dataapi.js',
        'proxy',
        '--upstream',
        mock.url,
        '--port',
        '0',
        '--report-dir',
        path.join(ctx.work, 'proxy-reports'),
      ],
      { cwd: ctx.root, ready: /dataapi proxy: (http:\/\/\S+) ->/ },
    );
    servers.push(proxy);
    const prism = await startPrism(
      ctx,
      'Prism proxy',
      ['proxy', 'spec/openapi.yaml', mock.url],
      AIR_QUALITY,
    );
    servers.push(prism);
    const table = await loadTable(ctx, [mock, proxy, prism], AIR_QUALITY);
    const [d, p, q] = table.summaries as [LoadSummary, LoadSummary, LoadSummary];
    // The proxy judged every exchange: its findings would be printed; there must be none.
    const findings = proxy
      .output()
      .split('\n')
      .filter((l) => /^[✗!] /.test(l)).length;
    return {
      id: 'proxy',
      title: '12. Validation proxy overhead (air quality)',
      body: [
        `Request: \`GET ${AIR_QUALITY}\`, autocannon ${CONNECTIONS} connections, pipelining 1, ${loadSeconds(ctx)} s per run, on loopback. Upstream: \`generated/mock\` (\`bench/servers/mock.ts\`, rate limits off). dataapi proxy: \`dataapi proxy --upstream <mock>\` (every exchange judged by the contract's checks; findings printed during the load: ${findings}). Prism: \`prism proxy spec/openapi.yaml <mock> -v silent\`. The mock's own row is the floor both proxies add to.`,
        '',
        ...table.lines,
        '',
        `dataapi proxy: p50 +${(p.p50 - d.p50).toFixed(2)} ms and p99 +${(p.p99 - d.p99).toFixed(2)} ms over direct calls; throughput ${Math.round((p.rps / d.rps) * 100)}% of direct; ${fmtRatio(p.rps / q.rps)} Prism's proxy.`,
        '',
        'Reproduce: `npm run bench -- --only proxy`.',
      ].join('\n'),
      verdicts: [],
    };
  });
}
