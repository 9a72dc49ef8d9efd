/**
 * The practical ceiling of the mock benchmark, in its own process: a bare Fastify route at the same
 * path returning the same body (read from BENCH_BODY_FILE, captured from the mock), with no
 * validation, authentication or envelope logic. Prints `LISTENING <url>`.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const file = process.env.BENCH_BODY_FILE;
const route = process.env.BENCH_ROUTE ?? '/Weather/AirQuality';
if (!file) throw new Error('BENCH_BODY_FILE is required');
const body = JSON.parse(readFileSync(file, 'utf8')) as unknown;

const app = Fastify({ logger: false });
app.get(route, async () => body);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
