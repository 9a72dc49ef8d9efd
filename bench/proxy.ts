/**
 * Validation proxy overhead: the same request (air quality) sent to the mock directly, through
 * `dataapi proxy` (forwarding and judging every exchange) and through Prism's proxy (`prism proxy`,
 * which validates against the same description), each server in its own process, loaded by
 * autocannon in turns with the same settings.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import {
  CONNECTIONS,
  LOAD_TABLE_HEAD,
  loadInTurns,
  loadNotes,
  loadRow,
  type LoadSummary,
} from './lib/load.ts';
import { freePort, startServer, type RunningServer } from './lib/servers.ts';
import { fmtRatio } from './lib/stats.ts';
import { AIR_QUALITY } from './mock.ts';

export async function proxyOverhead(ctx: BenchContext): Promise<Section> {
  if (!existsSync(path.join(ctx.root, 'generated/mock/index.ts')))
    throw new Error('generated/mock/index.ts is missing: run `node bin/dataapi.js generate` first');
  const seconds = ctx.quick ? 2 : 5;
  const servers: RunningServer[] = [];
  try {
    ctx.log('proxy: starting the mock, dataapi proxy, Prism proxy');
    const mock = await startServer(
      'mock, direct',
      process.execPath,
      ['--import', 'tsx', 'bench/servers/mock.ts'],
      {
        cwd: ctx.root,
      },
    );
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
    const port = await freePort();
    const prism = await startServer(
      'Prism proxy',
      path.join(ctx.root, 'bench/node_modules/.bin/prism'),
      [
        'proxy',
        'spec/openapi.yaml',
        mock.url,
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-v',
        'silent',
      ],
      { cwd: ctx.root, probe: `http://127.0.0.1:${port}${AIR_QUALITY}`, timeoutMs: 120_000 },
    );
    servers.push(prism);
    const answers: string[] = [];
    for (const s of servers) {
      const res = await fetch(s.url + AIR_QUALITY);
      answers.push(`${s.label}: HTTP ${res.status}, ${(await res.text()).length} bytes`);
    }
    const summaries = await loadInTurns(ctx, servers, AIR_QUALITY, seconds);
    const [d, p, q] = servers.map((s) => summaries.get(s)!) as [
      LoadSummary,
      LoadSummary,
      LoadSummary,
    ];
    // The proxy judged every exchange: its findings would be printed; there must be none.
    const findings = proxy
      .output()
      .split('\n')
      .filter((l) => /^[✗!] /.test(l)).length;
    return {
      id: 'proxy',
      title: '12. Validation proxy overhead (air quality)',
      body: [
        `Request: \`GET ${AIR_QUALITY}\`, autocannon ${CONNECTIONS} connections, pipelining 1, ${seconds} s per run, on loopback. Upstream: \`generated/mock\` (\`bench/servers/mock.ts\`, rate limits off). dataapi proxy: \`dataapi proxy --upstream <mock>\` (every exchange judged by the contract's checks; findings printed during the load: ${findings}). Prism: \`prism proxy spec/openapi.yaml <mock> -v silent\`. The mock's own row is the floor both proxies add to.`,
        '',
        'Answers checked before loading:',
        ...answers.map((a) => `- ${a}`),
        '',
        ...LOAD_TABLE_HEAD,
        loadRow(mock.label, d),
        loadRow(proxy.label, p),
        loadRow(prism.label, q),
        '',
        `dataapi proxy: p50 +${(p.p50 - d.p50).toFixed(2)} ms and p99 +${(p.p99 - d.p99).toFixed(2)} ms over direct calls; throughput ${Math.round((p.rps / d.rps) * 100)}% of direct; ${fmtRatio(p.rps / q.rps)} Prism's proxy. ${loadNotes([d, p, q])}`,
        '',
        'Reproduce: `npm run bench -- --only proxy`.',
      ].join('\n'),
      verdicts: [],
    };
  } finally {
    for (const s of servers) await s.stop();
  }
}
