/**
 * The server under test for the serve benchmark, in its own process: what `dataapi serve` runs
 * (createServiceApp: key check, validation, envelope, request ids, pino logging at warn, so no
 * line per request) with the mock's example handlers, and rate limits as BENCH_LIMITS says: `off`,
 * `memory` (in this process) or `redis` (in BENCH_REDIS_URL). Every limit is raised to 10^9 per
 * window, so the limiter counts every request in every window of the route (air quality: two)
 * and refuses none: the figure is the cost of the counting. Prints `LISTENING <url>`.
 */
import type { ServiceModel } from 'dataapi/model';
import { createServiceApp } from '../../runtime/server/app.ts';
import { exampleHandlers } from '../../runtime/mock/index.ts';
import { model } from '../../generated/server/index.ts';

const limits = process.env.BENCH_LIMITS ?? 'memory';
const redisUrl = process.env.BENCH_REDIS_URL;
if (!['off', 'memory', 'redis'].includes(limits)) throw new Error(`BENCH_LIMITS=${limits}?`);
if (limits === 'redis' && !redisUrl) throw new Error('BENCH_LIMITS=redis needs BENCH_REDIS_URL');

const raise = (w: ServiceModel['defaultRateLimit']) => ({ ...w, limit: 1e9 });
const raised = structuredClone(model) as ServiceModel;
raised.defaultRateLimit = raise(raised.defaultRateLimit);
for (const op of raised.operations) {
  op.rateLimit = raise(op.rateLimit);
  op.rateLimits = op.rateLimits.map(raise);
}

const { app } = await createServiceApp({
  model: raised,
  handlers: exampleHandlers(raised),
  keys: [process.env.BENCH_KEY ?? 'mock-appkey'],
  rateLimit: limits !== 'off',
  ...(limits === 'redis' ? { redisUrl: redisUrl!, onRedisError: 'closed' as const } : {}),
  logLevel: 'warn',
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
