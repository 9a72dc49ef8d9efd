/**
 * Every documented error (docs/service.md §4 and §5) can be produced on demand, each in the operation's
 * envelope with its group's business code; keys are checked; rate limits answer 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeGroupOf, readEnvelope } from 'dataapi/runtime/shared';
import { businessCodeFor } from 'dataapi/runtime/server';
import { model } from '../../generated/model.ts';
import { call, startMock, validRequest, type Running } from './helpers.ts';

let mock: Running;
beforeAll(async () => {
  mock = await startMock({ rateLimit: false });
});
afterAll(() => mock.close());

const op = (id: string) => model.operations.find((o) => o.id === id)!;

describe('documented errors on demand', () => {
  it('every declared error status of every operation, via Prefer and via __code', async () => {
    let checked = 0;
    for (const o of model.operations) {
      for (const r of o.responses) {
        const status = Number(r.status);
        if (!(status >= 400)) continue;
        const req = validRequest(model, o);
        const viaQuery = {
          ...req,
          path: `${req.path}${req.path.includes('?') ? '&' : '?'}__code=${status}`,
        };
        for (const res of [
          await call(mock.url, req, { prefer: `code=${status}` }),
          await call(mock.url, viaQuery),
        ]) {
          expect(res.status, `${o.id} ${status}`).toBe(status);
          if (o.envelope) {
            const reading = readEnvelope(o, res.body);
            expect(reading.wellFormed, `${o.id} ${status}: ${res.text}`).toBe(true);
            expect(reading.code, `${o.id} ${status}`).toBe(businessCodeFor(model, o, status));
            expect(reading.code).not.toBe(codeGroupOf(model, o)?.successCode);
            expect(reading.payload).toBeNull();
          }
          if (status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          if (status === 405) expect(res.headers.get('allow')).toContain(o.method.toUpperCase());
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(model.operations.length * 5);
  });

  it('every business code of every group, as a 200 with that code (Prefer: business-code)', async () => {
    for (const o of model.operations) {
      const group = codeGroupOf(model, o);
      if (!group) continue;
      for (const c of group.codes) {
        const res = await call(mock.url, validRequest(model, o), {
          prefer: `business-code=${c.code}`,
        });
        expect(res.status, `${o.id} ${c.code}`).toBe(200);
        expect(readEnvelope(o, res.body).code, `${o.id} ${c.code}`).toBe(c.code);
      }
    }
  });

  it('a business code with an HTTP status: code=403, business-code=505', async () => {
    const res = await call(mock.url, validRequest(model, op('predictAdmission')), {
      prefer: 'code=403, business-code=505',
    });
    expect(res.status).toBe(403);
    expect(readEnvelope(op('predictAdmission'), res.body).code).toBe(505);
  });

  it('refuses a business code outside the group and an unknown example with 400', async () => {
    const a = await call(mock.url, validRequest(model, op('getAirQuality')), {
      prefer: 'business-code=505',
    });
    expect(a.status).toBe(400);
    expect(readEnvelope(op('getAirQuality'), a.body).code).toBe(101);
    const b = await call(mock.url, validRequest(model, op('getAirQuality')), {
      prefer: 'example=nope',
    });
    expect(b.status).toBe(400);
    expect(readEnvelope(op('getAirQuality'), b.body).description).toContain('stale');
  });
});

describe('keys', () => {
  const withKey = model.operations.filter((o) => o.auth.transports.length > 0);
  it('no key and a wrong key: 401 with the group wrong-key code, on every operation', async () => {
    for (const o of withKey) {
      for (const key of [null, 'wrong-key']) {
        const res = await call(mock.url, validRequest(model, o, { key }));
        expect(res.status, `${o.id} key=${key}`).toBe(401);
        if (o.envelope) {
          const wrong =
            codeGroupOf(model, o)?.codes.find((c) => c.outcome === 'wrong_key')?.code ?? 401;
          expect(readEnvelope(o, res.body).code, o.id).toBe(wrong);
        }
        expect(res.text).not.toContain('wrong-key');
      }
    }
  });

  it('preview variants need no key; every key transport works', async () => {
    for (const o of model.operations.filter((x) => x.preview)) {
      const res = await call(mock.url, validRequest(model, o, { preview: true, key: null }));
      expect(res.status, o.id).toBe(200);
    }
    const article = op('extractArticle');
    expect(article.auth.transports.map((t) => t.in)).toEqual(['query', 'body']);
    const req = validRequest(model, article, { key: null });
    const body = JSON.stringify({ ...JSON.parse(req.init.body as string), appkey: 'mock-appkey' });
    expect((await call(mock.url, { ...req, init: { ...req.init, body } })).status).toBe(200);
    const wrong = JSON.stringify({ ...JSON.parse(req.init.body as string), appkey: 'nope' });
    expect((await call(mock.url, { ...req, init: { ...req.init, body: wrong } })).status).toBe(401);
    const exam = op('compareExamQuestions');
    expect(exam.auth.transports[0]).toMatchObject({ in: 'header', name: 'X-SERVICE-APPKEY' });
    expect((await call(mock.url, validRequest(model, exam))).status).toBe(200);
  });

  it('accepts DATAAPI_APPKEY instead of mock-appkey when it is set', async () => {
    process.env.DATAAPI_APPKEY = 'env-key-123';
    const { createMockServer } = await import('../../generated/mock/index.ts');
    const app = await createMockServer({ rateLimit: false });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      for (const [key, status] of [
        ['env-key-123', 200],
        ['mock-appkey', 401],
        ['other', 401],
      ] as const) {
        expect((await call(url, validRequest(model, op('getAirQuality'), { key }))).status).toBe(
          status,
        );
      }
    } finally {
      delete process.env.DATAAPI_APPKEY;
      await app.close();
    }
  });
});

describe('rate limits', () => {
  it('429 with Retry-After and the group code past the declared limit, per key and operation', async () => {
    const limited = await startMock();
    try {
      const o = op('getIpLocation');
      expect(o.rateLimit).toMatchObject({ limit: 5, per: 'second' });
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 7; i++) {
        last = await call(limited.url, validRequest(model, o));
        statuses.push(last.status);
      }
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
      expect(statuses).toContain(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(readEnvelope(o, last!.body).code).toBe(businessCodeFor(model, o, 429));
      // Another operation has its own budget.
      expect((await call(limited.url, validRequest(model, op('getSslCertInfo')))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
