/**
 * Mock throughput and latency (issue 9, item 4): dataapi's generated mock against a bare Fastify
 * route returning the same body (the ceiling) and Prism's mock of the same description, each in its
 * own process, loaded by autocannon from this process with the same settings, taking turns.
 * wrk, when installed, re-measures each once as a cross-check of the load generator.
 */
import type { BenchContext, Section } from './lib/context.ts';
import { CONNECTIONS, type LoadSummary } from './lib/load.ts';
import {
  AIR_QUALITY,
  loadSeconds,
  loadTable,
  requireGeneratedMock,
  sampleAnswer,
  startBare,
  startMock,
  startPrism,
  withServers,
} from './lib/load-table.ts';
import { fmtRatio } from './lib/stats.ts';

export async function mockThroughput(ctx: BenchContext): Promise<Section> {
  requireGeneratedMock(ctx);
  return withServers(async (servers) => {
    ctx.log('mock: starting dataapi mock, bare Fastify, Prism');
    const mock = await startMock(ctx, 'dataapi mock');
    servers.push(mock);
    const answer = await sampleAnswer(mock, AIR_QUALITY);
    const bare = await startBare(ctx, answer, 'air-quality-body.json');
    servers.push(bare);
    const prism = await startPrism(ctx, 'Prism', ['mock', 'spec/openapi.yaml'], AIR_QUALITY);
    servers.push(prism);
    const table = await loadTable(ctx, [bare, mock, prism], AIR_QUALITY, {
      label: mock.label,
      text: answer.text,
    });
    const [b, m, p] = table.summaries as [LoadSummary, LoadSummary, LoadSummary];
    const throughput = m.rps / b.rps;
    const overPrism = m.rps / p.rps;
    const p99Ratio = m.p99 / b.p99;
    return {
      id: 'mock',
      title: '4. Mock throughput and latency (air quality)',
      body: [
        `Request: \`GET ${AIR_QUALITY}\`, autocannon ${CONNECTIONS} connections, pipelining 1, ${loadSeconds(ctx)} s per run, on loopback; each server in its own process, the load generator in the bench process. dataapi: \`generated/mock\` \`createMockServer({ rateLimit: false, logger: false })\` (request validation, key check and envelope on; \`bench/servers/mock.ts\`). Bare Fastify: one route at the same path sending the mock's captured bytes as a prebuilt string with the same content type (\`bench/servers/bare.ts\`): the strictest ceiling, with no per-request serialisation (a route returning the body as an object would make Fastify \`JSON.stringify\` it on every request, which costs more than the mock's cached serialisation of its constant answers). Prism: \`npx prism mock spec/openapi.yaml -v silent\` (logging silenced, as dataapi's is off).`,
        '',
        ...table.lines,
        '',
        `dataapi / bare per server CPU-second: ${Math.round((m.perCpu / b.perCpu) * 100)}%.`,
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
  });
}
