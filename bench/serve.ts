/**
 * `dataapi serve` throughput (issue 15): the production server on the stubs with rate limits
 * counted in Redis, counted in the process, and off, against a bare Fastify route sending the same
 * bytes; each server in its own process, loaded by autocannon from this process, taking turns.
 */
import type { BenchContext, Section } from './lib/context.ts';
import { CONNECTIONS, type LoadSummary } from './lib/load.ts';
import {
  AIR_QUALITY,
  loadSeconds,
  loadTable,
  sampleAnswer,
  startBare,
  withServers,
} from './lib/load-table.ts';
import { findRedisServer, startRedis } from './lib/redis.ts';
import { startServer, type RunningServer } from './lib/servers.ts';

const pct = (a: number, b: number) => `${Math.round((a / b) * 100)}%`;

export async function serveThroughput(ctx: BenchContext): Promise<Section> {
  const redisServer = findRedisServer();
  if (!redisServer)
    throw new Error('redis-server is missing (Debian: apt-get install redis-server)');
  return withServers(async (running) => {
    const serve = async (label: string, limits: string, redisUrl?: string) => {
      const s = await startServer(
        label,
        process.execPath,
        ['--import', 'tsx', 'bench/servers/serve.ts'],
        {
          cwd: ctx.root,
          env: {
            ...process.env,
            BENCH_LIMITS: limits,
            ...(redisUrl ? { BENCH_REDIS_URL: redisUrl } : {}),
          },
        },
      );
      running.push(s);
      return s;
    };
    ctx.log('serve: starting redis-server, dataapi serve (3 ways), bare Fastify');
    const redis = await startRedis(redisServer);
    running.push(redis);
    const withRedis = await serve('serve, limits in Redis', 'redis', redis.url);
    const inMemory = await serve('serve, limits in memory', 'memory');
    const off = await serve('serve, limits off', 'off');
    const bare = await startBare(
      ctx,
      await sampleAnswer(inMemory, AIR_QUALITY),
      'serve-air-quality-body.json',
    );
    running.push(bare);
    const table = await loadTable(ctx, [bare, off, inMemory, withRedis], AIR_QUALITY);
    const [b, o, m, r] = table.summaries as [LoadSummary, LoadSummary, LoadSummary, LoadSummary];
    const redisCpu = await redis.cpuSeconds();
    return {
      id: 'serve',
      title: '9. Serve throughput: rate limits in Redis, in memory, off (air quality)',
      body: [
        `Request: \`GET ${AIR_QUALITY}\`, autocannon ${CONNECTIONS} connections, pipelining 1, ${loadSeconds(ctx)} s per run, on loopback; each server in its own process, the load generator in the bench process. dataapi serve: \`createServiceApp\` as \`dataapi serve\` runs it (key check against a keys list, validation, envelope, request ids, pino at \`warn\` so no line per request) with the mock's example handlers (\`bench/servers/serve.ts\`). Rate limits: every window raised to 10^9 requests, so the limiter counts each request in both of air quality's windows (5 per second and 100 per minute in the description) and refuses none; in Redis they are counted in a local \`redis-server\` (Debian's package, no persistence; the server fails closed, so a Redis failure would show as non-2xx answers). Bare Fastify: one route sending the same bytes as a prebuilt string (\`bench/servers/bare.ts\`).`,
        '',
        ...table.lines,
        '',
        `Throughput against bare Fastify: limits off ${pct(o.rps, b.rps)}, in memory ${pct(m.rps, b.rps)}, in Redis ${pct(r.rps, b.rps)}. Limits in Redis against limits in memory: ${pct(r.rps, m.rps)} of the throughput (${pct(r.perCpu, m.perCpu)} per server CPU-second; redis-server itself used ${redisCpu.toFixed(1)} CPU-seconds over the whole benchmark), p99 ${r.p99.toFixed(2)} ms against ${m.p99.toFixed(2)} ms.`,
        '',
        'Reproduce: `npm run bench -- --only serve` (servers: `redis-server --port 6390 --save ""`, then `BENCH_LIMITS=redis BENCH_REDIS_URL=redis://127.0.0.1:6390 node --import tsx bench/servers/serve.ts`, `BENCH_LIMITS=memory ...`, `BENCH_LIMITS=off ...`; load: `npx autocannon -c 10 -d 5 "<url>/Weather/AirQuality?city=Beijing&appkey=mock-appkey"`).',
      ].join('\n'),
      verdicts: [],
    };
  });
}
