/**
 * Hostile targets a QA run must survive and conclude on (real servers on 127.0.0.1, the CLI as a
 * child process): a target that refuses every request with 429, a route that never answers, and a
 * target that cannot be reached at all, which still gets every report, saying why.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMockServer } from '../../generated/mock/index.ts';
import { waitsOf } from '../../contract-tests/reports/report.ts';
import { KEY, failedOf, find, reportDir, runCli, type CliRun } from './harness.ts';
import { startProxy } from './proxy.ts';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const close = (server: Server) =>
  new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });

describe('a target that answers 429 to everything (no Retry-After, no business code)', () => {
  let server: Server;
  let url: string;
  let answered = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      answered++;
      res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests');
    });
    url = await listen(server);
  });
  afterAll(() => close(server));

  it('is recognised: retries stop, the failures are reported, the run concludes', async () => {
    const run = await runCli(
      'contract',
      ['--base-url', url, '--only', 'getAirQuality,getIpLocation,getFundBasicInfo'],
      'refuses-everything',
    );
    expect(run.code, run.stderr).toBe(1);
    const r = run.result!;
    expect(r.summary.failed).toBeGreaterThan(0);
    expect(find(run, 'getIpLocation', 'status')?.actual).toMatch(/HTTP 429/);
    expect(r.errors.join('\n')).toMatch(/answered HTTP 429 to 10 requests in a row/);
    // The breaker opened after ten 429s in a row: a handful of retries, not three per request.
    const { retries } = waitsOf(r);
    expect(retries).toBeLessThanOrEqual(12);
    expect(answered).toBeGreaterThan(20);
  }, 300_000); // a safety net for a hung run, not a speed limit
});

// The run against one route that never answers mostly waits on its timeouts (about a minute): it
// starts with the file (a beforeAll outside the describes runs first), and the other runs here go
// while it waits.
let mock: FastifyInstance;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let arrivals = 0;
let slowRoute: Promise<CliRun>;
beforeAll(async () => {
  mock = await createMockServer({ appkeys: [KEY] });
  await mock.listen({ port: 0, host: '127.0.0.1' });
  const upstream = `http://127.0.0.1:${(mock.server.address() as AddressInfo).port}`;
  proxy = await startProxy(upstream, [
    { path: '/Weather/AirQuality', onArrival: () => arrivals++, response: () => 'hang' },
  ]);
  slowRoute = runCli(
    'contract',
    // The toolkit's default timeout (the harness gives other runs a longer one): the route never
    // answers, so it fires however fast the machine, and the other operation's answers are not
    // held to a short limit.
    ['--base-url', proxy.url, '--only', 'getAirQuality,getIpLocation', '--timeout', '10000'],
    'slow-route',
  );
  slowRoute.catch(() => undefined); // awaited by its test
});
afterAll(async () => {
  await slowRoute?.catch(() => undefined);
  await proxy?.close();
  await mock?.close();
});

describe('one route that never answers', () => {
  it('fails that operation with its timeouts and tests the others', async () => {
    const run = await slowRoute;
    const r = run.result!;
    expect(r.errors.join('\n')).not.toMatch(/cannot reach/);
    // The other operation is tested, and passes.
    expect(failedOf(run).filter((f) => f.startsWith('getIpLocation'))).toEqual([]);
    expect(
      r.results.filter((x) => x.operation === 'getIpLocation' && x.status === 'passed').length,
    ).toBeGreaterThan(10);
    // The slow one fails with its timeout...
    expect(find(run, 'getAirQuality', 'server-errors')?.status).toBe('failed');
    expect(JSON.stringify(find(run, 'getAirQuality', 'server-errors'))).toMatch(
      /no response within the timeout of 10000 ms/,
    );
    // ...and once a route has let three requests in a row go unanswered, its other requests are
    // not sent (the operation and its /demo variant: two routes).
    expect(arrivals).toBeLessThanOrEqual(8);
    expect(JSON.stringify(r.results)).toMatch(/not sent: the last 3 requests to getAirQuality/);
    expect(run.code).toBe(1);
  }, 300_000); // a safety net for a hung run, not a speed limit
});

describe('a target that cannot be reached', () => {
  const dir = reportDir('unreachable-reports');

  it('still writes every report, each saying why (JUnit error case, JSON, HTML)', async () => {
    const run = await runCli(
      'contract',
      [
        '--base-url',
        `http://127.0.0.1:9/?appkey=${KEY}`,
        '--reporter',
        'console,junit,json,html',
        '--report-dir',
        dir,
      ],
      'unreachable-reports',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot reach the target .*ECONNREFUSED/);
    const junit = await readFile(path.join(dir, 'contract-junit.xml'), 'utf8');
    expect(junit).toMatch(/<error message="cannot reach the target [^"]*ECONNREFUSED/);
    expect(junit).toMatch(/errors="1"/);
    const json = run.result!;
    expect(json.errors[0]).toMatch(/cannot reach the target/);
    expect(json.results).toEqual([]);
    const html = await readFile(path.join(dir, 'contract-report.html'), 'utf8');
    expect(html).toMatch(/cannot reach the target/);
    expect(run.stdout).toMatch(/Errors outside any check \(1\)/);
    for (const text of [junit, JSON.stringify(json), html, run.stdout, run.stderr])
      expect(text).not.toContain(KEY);
  });

  it('refuses a --base-url that is not http(s) as bad input (exit 2)', async () => {
    const run = await runCli('contract', ['--base-url', 'ftp://x'], 'ftp');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--base-url must be an http:\/\/ or https:\/\/ URL, got "ftp:\/\/x"/,
    );
  });
});
