/**
 * The floor any proxy adds: a forwarding-only reverse proxy on the same HTTP stack as
 * `dataapi proxy` (node:http both ways, a keep-alive agent, bodies piped), with no copy kept and
 * nothing judged. Built for the proxy benchmark only. Upstream from BENCH_UPSTREAM; prints
 * `LISTENING <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.env.BENCH_UPSTREAM ?? '');
const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const headers = req.rawHeaders.slice();
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i]!.toLowerCase() === 'host') headers[i + 1] = upstream.host;
  const up = http.request({
    hostname: upstream.hostname,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers,
    agent,
  });
  let ended = false;
  req.pipe(up);
  up.on('response', (ur) => {
    res.writeHead(ur.statusCode ?? 502, ur.statusMessage ?? '', ur.rawHeaders);
    ur.on('end', () => (ended = true));
    ur.pipe(res);
  });
  up.on('error', () => res.destroy());
  res.on('close', () => {
    if (!ended) up.destroy();
  });
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as AddressInfo;
  process.stdout.write(`LISTENING http://127.0.0.1:${a.port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
