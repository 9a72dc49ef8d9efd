/**
 * Business codes and HTTP errors become one DataApiError with the group's meaning and canonical
 * outcome: every code of every group (mock `Prefer: business-code=N`), every declared HTTP error
 * (mock `Prefer: code=N`), and both envelope spellings read into the same shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { createClient, DataApiError } from '../../generated/client/index.ts';
import { MOCK_KEY, startMock, type Running } from './helpers.ts';

let mock: Running;
beforeAll(async () => {
  // The mock enforces its limits: the client paces each operation by the same windows
  // (op.rateLimits: 5 per second and 100 per minute on air quality), so no call is refused.
  mock = await startMock();
});
afterAll(() => mock.close());

// One client for the file: its per-operation pacing keeps the calls under the mock's own limits.
let shared: ReturnType<typeof createClient>;
const client = () =>
  (shared ??= createClient({ baseUrl: mock.baseUrl, appkey: MOCK_KEY, retry: false }));

// openapi-typescript (defaultNonNullable) makes fields with a default required: sent in full.
const RANK_BODY = {
  province: '浙江',
  subject_type: '综合',
  score: 612,
  score_window: 60,
  probability_sort: 'desc',
  page_index: 1,
  page_size: 10,
  candidate_limit: 30,
  major_name_strict: false,
  exclude_major_category: true,
  include_prediction_evidence: false,
} as const;

/** One operation per group, called with valid input and a scenario header. */
const byGroup = {
  A: (c: ReturnType<typeof client>, h: Record<string, string>) =>
    c.getAirQuality({ query: { location: '北京' } }, { headers: h }),
  B: (c: ReturnType<typeof client>, h: Record<string, string>) =>
    c.rankAdmissionMajorLines({ body: RANK_BODY }, { headers: h }),
  C: (c: ReturnType<typeof client>, h: Record<string, string>) =>
    c.getSslCertInfo({ query: { domain: 'https://www.example.com' } }, { headers: h }),
  base: (c: ReturnType<typeof client>, h: Record<string, string>) =>
    c.getFundOpenRealtime(undefined, { headers: h }),
} as const;

async function failure(p: Promise<unknown>): Promise<DataApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(DataApiError);
    return e as DataApiError;
  }
  throw new Error('expected a DataApiError');
}

describe('business codes inside HTTP 200', () => {
  for (const group of model.businessCodeGroups) {
    const call = byGroup[group.name as keyof typeof byGroup];
    for (const code of group.codes) {
      it(`group ${group.name} code ${code.code} -> ${code.outcome}`, async () => {
        const promise = call(client(), { Prefer: `business-code=${code.code}` });
        if (code.code === group.successCode) {
          const ok = await promise;
          expect(ok.status.code).toBe(code.code);
          return;
        }
        const e = await failure(promise);
        expect(e.httpStatus).toBe(200);
        expect(e.businessCode).toBe(code.code);
        expect(e.outcome).toBe(code.outcome);
        expect(e.meaning).toBe(code.meaning);
        expect(e.message).toContain(code.outcome);
      });
    }
  }
});

describe('HTTP errors', () => {
  for (const group of model.businessCodeGroups) {
    const call = byGroup[group.name as keyof typeof byGroup];
    for (const status of [400, 401, 403, 429, 500, 502]) {
      it(`group ${group.name}, HTTP ${status}: status, business code and outcome`, async () => {
        const e = await failure(call(client(), { Prefer: `code=${status}` }));
        expect(e.httpStatus).toBe(status);
        // The base group declares no error codes: the mock's code there is not a group code.
        const expectedCode = group.byHttpStatus[String(status)];
        if (expectedCode !== undefined) expect(e.businessCode).toBe(expectedCode);
        const declared = group.codes.find((c) => c.code === expectedCode);
        const fallback = {
          400: 'invalid_parameters',
          401: 'wrong_key',
          403: 'forbidden',
          429: 'rate_limited',
          500: 'service_error',
          502: 'service_error',
        }[status];
        expect(e.outcome).toBe(declared?.outcome ?? fallback);
        expect(e.operation).toMatch(
          /^(getAirQuality|rankAdmissionMajorLines|getSslCertInfo|getFundOpenRealtime)$/,
        );
      });
    }
  }

  it('a wrong key is refused as wrong_key with the group code', async () => {
    const c = createClient({ baseUrl: mock.baseUrl, appkey: 'not-the-key', retry: false });
    const e = await failure(c.getAirQuality({ query: { location: '北京' } }));
    expect([e.httpStatus, e.businessCode, e.outcome]).toEqual([401, 104, 'wrong_key']);
  });

  it('a plain JSON operation maps an HTTP error by status alone', async () => {
    const e = await failure(
      client().compareExamQuestions(
        { body: { exam1: 'a', exam2: 'b' } },
        { headers: { Prefer: 'code=403' } },
      ),
    );
    expect([e.httpStatus, e.businessCode, e.outcome]).toEqual([403, undefined, 'forbidden']);
  });

  it('an unknown path is not_found', async () => {
    const e = await failure(client().$runtime.callPath('getFundOpenRealtime', '/no/such/path', {}));
    expect([e.httpStatus, e.outcome]).toEqual([404, 'not_found']);
  });
});

describe('both envelope spellings give one shape', () => {
  it('capitalised (air quality) and lower camel case (IP location, SSL) read the same fields', async () => {
    const c = client();
    const air = await c.getAirQuality({ query: { location: '北京' } });
    const ip = await c.getIpLocation({ query: { ip: '223.5.5.5' } });
    const ssl = await c.getSslCertInfo({ query: { domain: 'https://www.example.com' } });
    for (const r of [air, ip, ssl]) {
      expect(Object.keys(r.status).sort()).toEqual(
        ['code', 'dateTime', 'description', 'raw', 'totalCount'].sort(),
      );
      expect(r.status.totalCount).toBeTypeOf('number');
    }
    expect(air.status.raw).toHaveProperty('StatusCode', 100);
    expect(ip.status.raw).toHaveProperty('statusCode', 100);
    expect(ssl.status.code).toBe(200);
    expect(air.data[0]?.City).toBeTypeOf('string');
    expect(ip.data.countryCode).toBeTypeOf('string');
  });
});
