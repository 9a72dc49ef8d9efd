/**
 * The server under test for the mock benchmark, in its own process: dataapi's generated mock with
 * validation, authentication and envelopes, rate limiting and logging off (they would throttle or
 * slow a load test and are off in any sane load-test configuration). Prints `LISTENING <url>`.
 */
import { createMockServer } from '../../generated/mock/index.ts';

const app = await createMockServer({ rateLimit: false, logger: false });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
