/**
 * The practical ceiling of the mock benchmark, in its own process: a bare Fastify route at the same
 * path sending the same bytes (BENCH_BODY_FILE, captured from the mock, with its content type in
 * BENCH_CONTENT_TYPE) as a prebuilt string: no validation, authentication, envelope logic or even
 * per-request serialisation. Prints `LISTENING <url>`.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const file = process.env.BENCH_BODY_FILE;
const route = process.env.BENCH_ROUTE ?? '/Weather/AirQuality';
const type = process.env.BENCH_CONTENT_TYPE ?? 'application/json; charset=utf-8';
if (!file) throw new Error('BENCH_BODY_FILE is required');
const body = readFileSync(file, 'utf8');

const app = Fastify({ logger: false });
app.get(route, (_request, reply) => {
  void reply.type(type).send(body);
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
