/**
 * Mock throughput and latency (issue 9, item 4): dataapi's generated mock against a bare Fastify
 * route returning the same body (the ceiling) and Prism's mock of the same description, each in its
 * own process, loaded by autocannon from this process with the same settings, taking turns.
 * wrk, when installed, re-measures each once as a cross-check of the load generator.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BenchContext, Section } from './lib/context.ts';
import { freePort, startServer, type RunningServer } from './lib/servers.ts';
import { fmtInt, fmtRatio, median } from './lib/stats.ts';

export const AIR_QUALITY = '/Weather/AirQuality?city=Beijing&appkey=mock-appkey';
const CONNECTIONS = 10;

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
/** A running autocannon job: thenable, and an emitter of per-response events. */
interface CannonJob extends PromiseLike<CannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ): void;
}
type Autocannon = (opts: Record<string, unknown>) => CannonJob;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface LoadRun {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU share of one core used by the load generator (this process) during the run. */
  loaderCpu: number;
  serverCpu: number;
}

async function load(server: RunningServer, seconds: number): Promise<LoadRun> {
  const cpu0 = process.cpuUsage();
  const s0 = await server.cpuSeconds();
  const t0 = performance.now();
  const job = autocannon({
    url: server.url + AIR_QUALITY,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  });
  // autocannon's histogram holds whole milliseconds (a loopback p99 is often "0 ms"); its response
  // event carries the exact time, so percentiles are computed from every 2xx response time.
  const times: number[] = [];
  job.on('response', (_c, status, _b, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const r = await job;
  times.sort((a, b) => a - b);
  const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const s1 = await server.cpuSeconds();
  return {
    rps: r.requests.total / r.duration,
    p50: pct(0.5),
    p99: pct(0.99),
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    loaderCpu: (cpu.user + cpu.system) / 1e6 / wall,
    serverCpu: (s1 - s0) / wall,
  };
}

async function wrkRun(
  url: string,
  seconds: number,
): Promise<{ rps: number; p99: number } | undefined> {
  if (!existsSync('/usr/bin/wrk')) return undefined;
  const { stdout } = await promisify(execFile)('/usr/bin/wrk', [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '--latency',
    url,
  ]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const m = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(stdout);
  const unit = m?.[2] === 'us' ? 0.001 : m?.[2] === 's' ? 1000 : 1;
  return { rps, p99: m ? Number(m[1]) * unit : Number.NaN };
}

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
      path.join(ctx.root, 'node_modules/.bin/prism'),
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
    const order = [bare, mock, prism];
    for (let w = 0; w < Math.max(1, ctx.warmup); w++)
      for (const s of order) {
        ctx.log(`  warm-up ${s.label}`);
        await load(s, Math.min(2, seconds));
      }
    const runs = new Map<RunningServer, LoadRun[]>(order.map((s) => [s, []]));
    for (let r = 0; r < ctx.runs; r++)
      for (const s of order) {
        const run = await load(s, seconds);
        ctx.log(
          `  run ${r + 1}/${ctx.runs} ${s.label}: ${fmtInt(run.rps)} req/s, p99 ${run.p99.toFixed(2)} ms, loader CPU ${Math.round(run.loaderCpu * 100)}%`,
        );
        runs.get(s)!.push(run);
      }
    const wrk = new Map<RunningServer, { rps: number; p99: number } | undefined>();
    for (const s of order) wrk.set(s, await wrkRun(s.url + AIR_QUALITY, seconds));

    const agg = (s: RunningServer) => {
      const list = runs.get(s)!;
      return {
        rps: median(list.map((x) => x.rps)),
        p50: median(list.map((x) => x.p50)),
        p99: median(list.map((x) => x.p99)),
        non2xx: list.reduce((a, x) => a + x.non2xx, 0),
        errors: list.reduce((a, x) => a + x.errors, 0),
        loaderCpu: median(list.map((x) => x.loaderCpu)),
        serverCpu: median(list.map((x) => x.serverCpu)),
        perCpu: median(list.map((x) => x.rps / Math.max(x.serverCpu, 1e-6))),
      };
    };
    const [b, m, p] = [agg(bare), agg(mock), agg(prism)];
    const rows = [
      [bare, b],
      [mock, m],
      [prism, p],
    ].map(([s, a]) => {
      const x = a as ReturnType<typeof agg>;
      const w = wrk.get(s as RunningServer);
      return `| ${(s as RunningServer).label} | ${fmtInt(x.rps)} | ${x.p50.toFixed(2)} ms | ${x.p99.toFixed(2)} ms | ${fmtInt(
        x.non2xx,
      )} | ${x.errors} | ${Math.round(x.serverCpu * 100)}% | ${fmtInt(x.perCpu)} | ${Math.round(x.loaderCpu * 100)}% | ${
        w ? `${fmtInt(w.rps)} req/s, p99 ${w.p99.toFixed(2)} ms` : '–'
      } |`;
    });
    const saturated = [b, m, p].some((x) => x.loaderCpu >= 0.9);
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
        '| server | req/s (median) | p50 | p99 | non-2xx | errors | server CPU | req per server CPU-second | load generator CPU | wrk cross-check (1 run) |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
        ...rows,
        '',
        `CPU is the share of one core over the run (server: its process tree from /proc; load generator: this process). On this shared machine a server often gets less than a core; requests per server CPU-second does not depend on how much CPU the server got, so it is the steadier comparison (dataapi / bare: ${Math.round((m.perCpu / b.perCpu) * 100)}%). ${
          saturated
            ? '**The load generator saturated a core (>= 90%) in at least one series**: figures may be capped by autocannon rather than by the server; the wrk column (a cheaper C load generator) shows the difference.'
            : 'The load generator did not saturate a core (< 90% in every series).'
        } Latency percentiles are computed from the exact time of every 2xx response (autocannon's \`response\` event), not from its whole-millisecond histogram.`,
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
