/**
 * Proof that the contract suite catches violations: the generated suite runs (through the real
 * CLI) against a proxy in front of the conforming mock that breaks one thing per operation, and
 * each break must be reported by the right check of the right operation; operations without a
 * fault must not fail. All faults run in one CLI run (each on its own operation or variant) to keep
 * this fast. The run that holds answers to --max-response-time is response-time.test.ts.
 */
import { expect } from 'vitest';
import { KEY } from './harness.ts';
import { faultRuns, hasKey, json, ok, type Case } from './fault-runs.ts';
import { mapJson, type Fault } from './proxy.ts';

const group = faultRuns();

const FUND: Case[] = [
  {
    name: 'the other envelope spelling',
    operation: 'getFundBasicIndex',
    check: 'envelope',
    fault: {
      path: '/fund/basic/index',
      response: (res) => mapJson(res, (b) => ({ dataStatus: b.DataStatus, data: b.Data })),
    },
    detail: (r) => expect(r.actual).toContain('dataStatus'),
  },
  {
    name: 'a wrong content type on success',
    operation: 'getFundBasicInfo',
    check: 'content-type',
    fault: {
      path: '/fund/basicinfo',
      response: (res) =>
        ok(res.status)
          ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } }
          : res,
    },
    detail: (r) => expect(r.actual).toBe('text/plain'),
  },
  {
    name: 'a wrong business code on a valid request',
    operation: 'getFundEtfOpenRankingList',
    check: 'business-code',
    fault: {
      path: '/fund/fund-etf-open-ranking-list',
      response: (res) =>
        ok(res.status)
          ? mapJson(res, (b) => ({ ...b, DataStatus: { ...b.DataStatus, StatusCode: 101 } }))
          : res,
    },
    detail: (r) => expect(r.actual).toBe('code 101'),
  },
  {
    name: 'a 500 on a wrong method',
    operation: 'getFundOpenRankingList',
    check: 'server-errors',
    fault: {
      path: '/fund/fund-open-ranking-list',
      response: (res, req) =>
        req.method !== 'GET' ? { status: 500, headers: res.headers, body: res.body } : res,
    },
    detail: (r) => expect(r.actual).toContain('HTTP 500'),
  },
  {
    name: 'a 405 without an Allow header',
    operation: 'getFundValueEstimation',
    check: 'method-path',
    fault: {
      path: '/fund/fund-value-estimation',
      response: (res) => {
        const headers = { ...res.headers };
        delete headers['allow'];
        return { ...res, headers };
      },
    },
    detail: (r) => expect(r.actual).toBe('no Allow header'),
  },
  {
    name: 'a 200 on an unknown path',
    operation: 'getFundHistoryMinute',
    check: 'method-path',
    fault: {
      path: '/fund/historyminute',
      response: (res, req) =>
        req.path.endsWith('no-such-path')
          ? { status: 200, headers: { 'content-type': 'application/json' }, body: json('{}') }
          : res,
    },
    detail: (r) => expect(r.expected).toContain('404'),
  },
  {
    name: 'an undeclared status on a valid request',
    operation: 'getFundOpenNavHistory',
    check: 'status',
    fault: {
      path: '/fund/open-nav-history',
      response: (res, req) =>
        req.method === 'GET' && hasKey(req.query) && ok(res.status) ? { ...res, status: 203 } : res,
    },
    detail: (r) => expect(r.actual).toContain('HTTP 203'),
  },
  {
    name: 'a 429 whose Retry-After is not an integer (retried, then checked)',
    operation: 'getFundOpenNavRealtime',
    check: 'headers',
    fault: (() => {
      let sent = false;
      return {
        path: '/fund/open-nav-realtime',
        response: (res, req) => {
          if (sent || req.method !== 'GET' || !hasKey(req.query)) return res;
          sent = true;
          return {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': 'soon' },
            body: json('{"DataStatus":{"StatusCode":100,"StatusDescription":"busy"},"Data":null}'),
          };
        },
      } satisfies Fault;
    })(),
    detail: (r) => {
      expect(r.actual).toContain('Retry-After: soon');
      // The 429 was waited out and retried, and the wait is reported.
      expect(r.waitedMs).toBeGreaterThan(0);
      expect(r.exchanges.some((e) => e.retries === 1 && e.status === 200)).toBe(true);
    },
  },
  {
    name: 'a hang past the timeout',
    operation: 'getFundOpenEtfHistory',
    check: 'server-errors',
    fault: {
      path: '/fund/open/etfhistory',
      response: (res, req) => (req.method === 'GET' && hasKey(req.query) ? 'hang' : res),
    },
    detail: (r) => expect(r.actual).toContain('no response within the timeout'),
  },
  {
    name: 'a wrong method answered with 200',
    operation: 'getFundOpenEtfRealtime',
    check: 'method-path',
    fault: {
      path: '/fund/open/etfrealtime',
      request: (req) => ({ ...req, method: 'GET' }),
    },
    detail: (r) => expect(r.expected).toBe('HTTP 405'),
  },
  {
    name: 'a 200 without a key',
    operation: 'getFundOpenHistory',
    check: 'auth',
    fault: {
      path: '/fund/open/history',
      request: (req) => {
        const query = new URLSearchParams(req.query);
        query.set('appkey', KEY);
        return { ...req, query };
      },
    },
    detail: (r) => expect(r.actual).toContain('HTTP 200'),
  },
];

const SERVICE: Case[] = [
  {
    name: 'a 200 on pageSize=21',
    operation: 'getGlobalUniversityRanking',
    check: 'negative',
    fault: {
      path: '/metadata/global-university-ranking',
      request: (req) => {
        const query = new URLSearchParams(req.query);
        if (Number(query.get('pageSize')) > 20) query.set('pageSize', '20');
        return { ...req, query };
      },
    },
    detail: (r) => expect(r.errors.join('\n')).toContain('pageSize=21'),
  },
  {
    name: 'a missing required field',
    operation: 'getAirQuality',
    check: 'schema',
    fault: {
      path: '/Weather/AirQuality',
      response: (res) =>
        ok(res.status)
          ? mapJson(res, (b) => ({ ...b, Data: b.Data.map(({ City: _, ...rest }: any) => rest) }))
          : res,
    },
    detail: (r) => {
      expect(r.errors.join('\n')).toMatch(/\/Data\/0 must have required property 'City'/);
      expect(r.request?.url).toContain('appkey=***');
    },
  },
  {
    name: 'a key of the other spelling beside the lower camel case envelope',
    operation: 'getIpLocation',
    check: 'envelope',
    fault: {
      path: '/v2/location/ip',
      response: (res) => mapJson(res, (b) => ({ ...b, Data: b.data })),
    },
    detail: (r) => expect(r.actual).toContain('Data'),
  },
  {
    name: 'a 200 on score 751',
    operation: 'rankAdmissionMajorLines',
    check: 'negative',
    fault: {
      path: '/ai/admission/major-line-rank',
      request: (req) => {
        try {
          const body = JSON.parse(req.body.toString('utf8'));
          if (typeof body.score === 'number' && body.score > 750) body.score = 600;
          return { ...req, body: Buffer.from(JSON.stringify(body)) };
        } catch {
          return req;
        }
      },
    },
    detail: (r) => expect(r.errors.join('\n')).toContain('score=751'),
  },
  {
    name: 'a JSON body of the wrong content type accepted',
    operation: 'compareExamQuestions',
    check: 'method-path',
    fault: {
      path: '/education/exam-question-similarity',
      request: (req) =>
        req.headers['content-type'] === 'text/plain'
          ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } }
          : req,
    },
    detail: (r) => expect(r.expected).toContain('415'),
  },
  {
    name: 'a preview variant that wants a key',
    operation: 'extractArticle',
    check: 'auth',
    variant: 'preview',
    fault: {
      path: '/ai/v1/articles/extract/demo',
      response: (res) => ({
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: json('{"DataStatus":{"StatusCode":100,"StatusDescription":"key"},"Data":null}'),
      }),
    },
    detail: (r) => expect(r.actual).toContain('HTTP 401'),
  },
  {
    name: 'a probability out of 0..1',
    operation: 'predictAdmission',
    check: 'schema',
    fault: {
      path: '/ai/admission/predict',
      response: (res) =>
        ok(res.status)
          ? mapJson(res, (b) => {
              b.Data.predictions[0].admission_probability = 1.5;
              return b;
            })
          : res,
    },
    detail: (r) => expect(r.errors.join('\n')).toMatch(/admission_probability must be <= 1/),
  },
  {
    name: "a wrong-key answer with another group's code",
    operation: 'getSslCertInfo',
    check: 'business-code',
    fault: {
      path: '/v2/websitetools/sslcertinfo',
      response: (res) =>
        res.status === 401
          ? mapJson(res, (b) => ({ ...b, dataStatus: { ...b.dataStatus, statusCode: 104 } }))
          : res,
    },
    detail: (r) => expect(r.actual).toBe('code 104'),
  },
];

const WRITES: Case[] = [
  {
    name: 'a polled task that answers about another task',
    operation: 'submitDocumentExtraction',
    check: 'lifecycle',
    fault: {
      path: '/v1/document-extractions/tasks',
      response: (res) =>
        ok(res.status)
          ? mapJson(res, (b) => ({ ...b, Data: { ...b.Data, operationId: 'op_someone_else' } }))
          : res,
    },
    detail: (r) => expect(r.actual).toContain('op_someone_else'),
  },
  {
    name: 'an upload whose answer does not list the files',
    operation: 'uploadKnowledgeBaseDocuments',
    check: 'lifecycle',
    fault: {
      path: '/ai/knowledge-bases',
      response: (res) =>
        ok(res.status) ? mapJson(res, (b) => ({ ...b, Data: { ...b.Data, documents: [] } })) : res,
    },
    detail: (r) => expect(r.actual).toContain('is not listed'),
  },
  {
    name: 'paging overflow on the preview variant',
    operation: 'getGlobalUniversityRanking',
    check: 'paging',
    variant: 'preview',
    fault: {
      path: '/metadata/global-university-ranking/demo',
      response: (res) =>
        ok(res.status)
          ? mapJson(res, (b) => ({ ...b, Data: [...b.Data, ...b.Data, ...b.Data] }))
          : res,
    },
    detail: (r) => expect(r.expected).toMatch(/at most \d+ items/),
  },
];

// One run for all faults (each on its own operation, or its own variant): one CLI start, files in
// parallel.
group('one fault per operation', [...FUND, ...SERVICE, ...WRITES], ['--allow-writes']);
