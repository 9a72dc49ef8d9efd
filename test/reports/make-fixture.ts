/**
 * Regenerates test/reports/fixtures/contract-results.json: the structured results of a REAL run of
 * `dataapi contract` (through the CLI) against a proxy in front of the conforming mock that breaks
 * one check per operation, so the reporters are tested on what the runner really produces, with
 * every check failing somewhere and hostile text (markup, control characters, the key) in a
 * response excerpt. Run it by hand after a change of the result format:
 *
 *   npx tsx test/reports/make-fixture.ts
 *
 * The fixture is committed; the runner has already redacted the key in it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createMockServer } from '../../generated/mock/index.ts';
import { KEY, ROOT, runCli } from '../contract/harness.ts';
import { mapJson, startProxy, type Fault, type ProxyResponse } from '../contract/proxy.ts';
import { FIXTURE_OPERATIONS, HOSTILE } from './fixture.ts';

const ok = (res: ProxyResponse) => res.status >= 200 && res.status < 300;
const hasKey = (q: URLSearchParams) => q.has('appkey');

const faults: Fault[] = [
  // schema: an enumeration broken with hostile text, the key echoed in a header and the body.
  {
    path: '/Weather/AirQuality',
    response: (res, req) =>
      ok(res) && hasKey(req.query)
        ? {
            ...mapJson(res, (b) => {
              b.Data[0].DataStatus = HOSTILE;
              b.Echo = `key ${req.query.get('appkey')}`;
              return b;
            }),
            headers: { ...res.headers, 'x-echo': String(req.query.get('appkey')) },
          }
        : res,
  },
  // content-type on the preview variant.
  {
    path: '/Weather/AirQuality/demo',
    response: (res) =>
      ok(res) ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' } } : res,
  },
  // envelope: the other spelling.
  {
    path: '/v2/location/ip',
    response: (res) => mapJson(res, (b) => ({ DataStatus: b.dataStatus, Data: b.data })),
  },
  // business-code: an error code on a valid request.
  {
    path: '/v2/websitetools/sslcertinfo',
    response: (res, req) =>
      ok(res) && hasKey(req.query)
        ? mapJson(res, (b) => ({ ...b, dataStatus: { ...b.dataStatus, statusCode: 500 } }))
        : res,
  },
  // negative: pageSize=21 accepted.
  {
    path: '/metadata/global-university-ranking',
    request: (req) => {
      const query = new URLSearchParams(req.query);
      if (Number(query.get('pageSize')) > 20) query.set('pageSize', '20');
      return { ...req, query };
    },
  },
  // paging: more items than asked for on the preview variant.
  {
    path: '/metadata/global-university-ranking/demo',
    response: (res) =>
      ok(res) ? mapJson(res, (b) => ({ ...b, Data: [...b.Data, ...b.Data, ...b.Data] })) : res,
  },
  // status: an undeclared 203 on a valid request.
  {
    path: '/fund/basic/index',
    response: (res, req) =>
      req.method === 'GET' && hasKey(req.query) && ok(res) ? { ...res, status: 203 } : res,
  },
  // method-path: a wrong method answered like a GET.
  { path: '/fund/basicinfo', request: (req) => ({ ...req, method: 'GET' }) },
  // auth: a 200 without a key.
  {
    path: '/fund/open/history',
    request: (req) => {
      const query = new URLSearchParams(req.query);
      query.set('appkey', KEY);
      return { ...req, query };
    },
  },
  // server-errors: a 500 on a wrong method.
  {
    path: '/fund/fund-open-ranking-list',
    response: (res, req) => (req.method !== 'GET' ? { ...res, status: 500 } : res),
  },
  // headers: a 429 whose Retry-After is not an integer (retried, then checked).
  (() => {
    let sent = false;
    return {
      path: '/fund/open-nav-realtime',
      response: (res: ProxyResponse, req) => {
        if (sent || req.method !== 'GET' || !hasKey(req.query)) return res;
        sent = true;
        return {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': 'soon' },
          body: Buffer.from(
            '{"DataStatus":{"StatusCode":100,"StatusDescription":"busy"},"Data":null}',
          ),
        };
      },
    } satisfies Fault;
  })(),
  // response-time: slower than --max-response-time.
  {
    path: '/fund/open/realtime',
    delayMs: 1200,
    delayIf: (req) => req.method === 'GET' && hasKey(req.query),
  },
  // lifecycle: an upload whose answer does not list the files.
  {
    path: '/ai/knowledge-bases',
    response: (res) =>
      ok(res) ? mapJson(res, (b) => ({ ...b, Data: { ...b.Data, documents: [] } })) : res,
  },
];

const mock = await createMockServer({ appkeys: [KEY] });
await mock.listen({ port: 0, host: '127.0.0.1' });
const upstream = `http://127.0.0.1:${(mock.server.address() as { port: number }).port}`;
const proxy = await startProxy(upstream, faults);
try {
  const run = await runCli(
    'contract',
    [
      '--base-url',
      proxy.url,
      '--only',
      FIXTURE_OPERATIONS.join(','),
      '--timeout',
      '3000',
      '--allow-writes',
      '--max-response-time',
      '800',
      '--reporter',
      'dot',
    ],
    'reports-fixture',
  );
  if (!run.result) throw new Error(`no results: ${run.stderr}`);
  const text = JSON.stringify(run.result, null, 2);
  if (text.includes(KEY)) throw new Error('the key leaked into the results');
  // The port of the run's proxy is the only thing that differs between runs of this script.
  const file = path.join(ROOT, 'test', 'reports', 'fixtures', 'contract-results.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${text.split(proxy.url).join('http://127.0.0.1:4010')}\n`);
  const failed = run.result.results.filter((r) => r.status === 'failed');
  process.stdout.write(
    `${path.relative(ROOT, file)}: ${run.result.results.length} checks, ${failed.length} failed:\n` +
      failed.map((r) => `  ${r.operation} ${r.variant} ${r.check}\n`).join(''),
  );
} finally {
  await proxy.close();
  await mock.close();
}
