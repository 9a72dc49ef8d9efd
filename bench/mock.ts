/**
 * Mock throughput and latency (issue 9, item 4): dataapi's generated mock against a bare Fastify
 * route returning the same body (the ceiling) and Prism's mock of the same description, each in its
 * own process, loaded by autocannon from this process with the same settings, taking turns.
 * wrk, when installed, re-measures each once as a cross-check of the load generator.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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
import { fmtInt, fmtRatio, median } from './lib/stats.ts';

export const AIR_QUALITY = '/Weather/AirQuality?city=Beijing&appkey=mock-appkey';
/** Equal once ISO date-times (the envelope's response time, stamped per request) are masked. */
const sameBody = (a: string, b: string) => {
  const mask = (t: string) => t.replace(/\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)/g, '<date>');
  return mask(a) === mask(b);
};

export async function mockThroughput(ctx: BenchContext): Promise<Section> {
  if (!existsSync(path.join(ctx.root, 'generated/mock/index.ts')))
    throw new Error('generated/mock/index.ts is missing: run `node bin/dataapi.js generate` first');
  const seconds = ctx.quick ? 2 : 5;
  const tsx = ['--import', 'tsx'];
  const servers: RunningServer[] = [];
  try {
    ctx.log('mock: starting dataapi mock, bare Fastify, Prism');
    const mock = await startServer(
      'dataapi mock',
      process.execPath,
      [...tsx, 'bench/servers/mock.ts'],
      {
        cwd: ctx.root,
      },
    );
    servers.push(mock);
    const sample = await fetch(mock.url + AIR_QUALITY);
    const bodyText = await sample.text();
    if (sample.status !== 200)
      throw new Error(
        `the mock answered ${sample.status} to ${AIR_QUALITY}: ${bodyText.slice(0, 300)}`,
      );
    const bodyFile = path.join(ctx.work, 'air-quality-body.json');
    await writeFile(bodyFile, bodyText);
    const bare = await startServer(
      'bare Fastify',
      process.execPath,
      [...tsx, 'bench/servers/bare.ts'],
      {
        cwd: ctx.root,
        env: {
          ...process.env,
          BENCH_BODY_FILE: bodyFile,
          BENCH_CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json',
        },
      },
    );
    servers.push(bare);
    const port = await freePort();
    const prism = await startServer(
      'Prism',
      path.join(ctx.root, 'bench/node_modules/.bin/prism'),
      ['mock', 'spec/openapi.yaml', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent'],
      { cwd: ctx.root, probe: `http://127.0.0.1:${port}${AIR_QUALITY}`, timeoutMs: 120_000 },
    );
    servers.push(prism);
    const statuses: string[] = [];
    for (const s of [bare, mock, prism]) {
      const res = await fetch(s.url + AIR_QUALITY);
      const text = await res.text();
      statuses.push(
        `${s.label}: HTTP ${res.status}, ${text.length} bytes${
          s !== mock && sameBody(text, bodyText)
            ? ' (the same body as the mock, its date aside)'
            : ''
        }`,
      );
    }
    const summaries = await loadInTurns(ctx, [bare, mock, prism], AIR_QUALITY, seconds);
    const [b, m, p] = [bare, mock, prism].map((s) => summaries.get(s)!) as [
      LoadSummary,
      LoadSummary,
      LoadSummary,
    ];
    const throughput = m.rps / b.rps;
    const overPrism = m.rps / p.rps;
    const p99Ratio = m.p99 / b.p99;
    return {
      id: 'mock',
      title: '4. Mock throughput and latency (air quality)',
      body: [
        `Request: \`GET ${AIR_QUALITY}\`, autocannon ${CONNECTIONS} connections, pipelining 1, ${seconds} s per run, on loopback; each server in its own process, the load generator in the bench process. dataapi: \`generated/mock\` \`createMockServer({ rateLimit: false, logger: false })\` (request validation, key check and envelope on; \`bench/servers/mock.ts\`). Bare Fastify: one route at the same path sending the mock's captured bytes as a prebuilt string with the same content type (\`bench/servers/bare.ts\`): the strictest ceiling, with no per-request serialisation (a route returning the body as an object would make Fastify \`JSON.stringify\` it on every request, which costs more than the mock's cached serialisation of its constant answers). Prism: \`npx prism mock spec/openapi.yaml -v silent\` (logging silenced, as dataapi's is off).`,
        '',
        'Answers checked before loading:',
        ...statuses.map((s) => `- ${s}`),
        '',
        ...LOAD_TABLE_HEAD,
        loadRow(bare.label, b),
        loadRow(mock.label, m),
        loadRow(prism.label, p),
        '',
        `${loadNotes([b, m, p])} dataapi / bare per server CPU-second: ${Math.round((m.perCpu / b.perCpu) * 100)}%.`,
        '',
        'Reproduce: `npm run bench -- --only mock` (servers: `node --import tsx bench/servers/mock.ts`, `BENCH_BODY_FILE=body.json node --import tsx bench/servers/bare.ts`; load: `npx autocannon -c 10 -d 5 "<url>/Weather/AirQuality?city=Beijing&appkey=mock-appkey"`).',
      ].join('\n'),
      verdicts: [
        {
          target: 'mock throughput >= 60% of bare Fastify',
          measured: `${Math.round(throughput * 100)}% (per server CPU-second ${Math.round((m.perCpu / b.perCpu) * 100)}%)`,
          met: throughput >= 0.6,
        },
        {
          target: 'mock throughput >= 10x Prism',
          measured: fmtRatio(overPrism),
          met: overPrism >= 10,
        },
        { target: 'mock p99 <= 2x bare Fastify', measured: fmtRatio(p99Ratio), met: p99Ratio <= 2 },
      ],
    };
  } finally {
    for (const s of servers) await s.stop();
  }
}
