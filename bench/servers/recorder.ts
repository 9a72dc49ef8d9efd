/**
 * The target of the live-pacing benchmark, in its own process: dataapi's mock (its own rate limiting
 * off, so a runner that went too fast would not be slowed by 429s and hidden) behind a plain HTTP
 * server that records when each request arrives. A second server on another port hands the
 * recorded arrivals out and clears them: GET /arrivals -> [{ t, method, path }] (t in ms).
 * Prints `LISTENING <url>` and `ADMIN <url>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockServer } from '../../generated/mock/index.ts';

interface Arrival {
  t: number;
  method: string;
  path: string;
}

let arrivals: Arrival[] = [];
const app = await createMockServer({ rateLimit: false, logger: false });
const target = createServer((req, res) => {
  arrivals.push({
    t: performance.timeOrigin + performance.now(),
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0] ?? '/',
  });
  app.routing(req, res);
});
const admin = createServer((req, res) => {
  if (req.url === '/arrivals') {
    const body = JSON.stringify(arrivals);
    arrivals = [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } else res.writeHead(404).end();
});
const listen = (s: ReturnType<typeof createServer>) =>
  new Promise<number>((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)),
  );
const port = await listen(target);
const adminPort = await listen(admin);
process.stdout.write(`ADMIN http://127.0.0.1:${adminPort}\nLISTENING http://127.0.0.1:${port}\n`);
const stop = () => {
  target.closeAllConnections();
  admin.closeAllConnections();
  target.close();
  admin.close();
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
