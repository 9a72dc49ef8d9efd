/**
 * Key transports, retries with backoff and Retry-After, per-operation pacing and timeouts, each
 * against a small real Fastify server that records when requests arrive.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, DataApiError } from '../../generated/client/index.ts';
import { parseRetryAfter } from 'dataapi/runtime/client';
import { capitalised, SECRET, startServer, type Arrival } from './helpers.ts';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(routes: Parameters<typeof startServer>[0]) {
  const s = await startServer(routes);
  servers.push(s);
  return s;
}
async function failure(p: Promise<unknown>): Promise<DataApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DataApiError);
  return e as DataApiError;
}
const gaps = (a: Arrival[]) => a.slice(1).map((x, i) => x.at - a[i]!.at);

describe('the key goes where the operation takes it', () => {
  it('query appkey, X-SERVICE-APPKEY header, JSON body field; never on a preview', async () => {
    const s = await server((app) => {
      app.get('/fund/open/realtime', async () => capitalised([]));
      app.post('/education/exam-question-similarity', async () => ({}));
      app.post('/ai/v1/articles/extract', async () => capitalised({ url: 'u' }));
      app.get('/Weather/AirQuality/demo', async () => capitalised([]));
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: SECRET });
    await c.getFundOpenRealtime();
    await c.compareExamQuestions({ body: { exam1: 'a', exam2: 'b' } });
    await c.extractArticle({ body: { url: 'https://a.example/x' } }, { keyIn: 'body' });
    await c.extractArticle({ body: { url: 'https://a.example/x' } });
    await c.getAirQualityPreview({ query: { location: '北京' } });
    const [query, header, body, defaultArticle, preview] = s.arrivals;
    expect(new URL(query!.url, s.baseUrl).searchParams.get('appkey')).toBe(SECRET);
    expect(header!.headers['x-service-appkey']).toBe(SECRET);
    expect(header!.url).not.toContain('appkey');
    expect(body!.body).toEqual({ url: 'https://a.example/x', appkey: SECRET });
    expect(body!.url).not.toContain('appkey');
    expect(new URL(defaultArticle!.url, s.baseUrl).searchParams.get('appkey')).toBe(SECRET);
    expect(preview!.url).toBe(`/Weather/AirQuality/demo?location=${encodeURIComponent('北京')}`);
    expect(JSON.stringify(preview!.headers)).not.toContain('Key+42');
  });
});

describe('envelope spellings', () => {
  it("reads a body in the other spelling when the operation's own is absent", async () => {
    const s = await server((app) => {
      // The service's lower camel case samples also show a capitalised DataStatus.
      app.get('/v2/location/ip', async () => ({
        DataStatus: {
          StatusCode: 100,
          StatusDescription: 'ok',
          ResponseDateTime: 't',
          DataTotalCount: 1,
        },
        Data: { countryCode: 'CN' },
      }));
      app.get('/fund/open/realtime', async () => ({
        dataStatus: {
          statusCode: 100,
          statusDescription: 'ok',
          responseDateTime: 't',
          dataTotalCount: 2,
        },
        data: [1, 2],
      }));
      app.get('/fund/basicinfo', async () => ({ Data: [] }));
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
    const ip = await c.getIpLocation({ query: { ip: '1.1.1.1' } });
    expect([ip.data.countryCode, ip.status.code, ip.status.totalCount]).toEqual(['CN', 100, 1]);
    const fund = await c.getFundOpenRealtime();
    expect([fund.data, fund.status.totalCount, fund.status.description]).toEqual([[1, 2], 2, 'ok']);
    // No status object in either spelling: the business outcome is unknown, not success.
    const e = await failure(c.getFundBasicInfo());
    expect(e.outcome).toBe('invalid_response');
  });
});

describe('retries', () => {
  it('waits the Retry-After of a 429, then succeeds', async () => {
    let n = 0;
    const s = await server((app) => {
      app.get('/fund/open/realtime', async (_req, reply) =>
        ++n === 1 ? reply.code(429).header('retry-after', '1').send({}) : capitalised([1]),
      );
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k', retry: { baseDelayMs: 1 } });
    const r = await c.getFundOpenRealtime();
    expect([r.httpStatus, r.attempts, r.data]).toEqual([200, 2, [1]]);
    expect(gaps(s.arrivals)[0]).toBeGreaterThanOrEqual(1000);
  });

  it('backs off exponentially on 502 and on network errors', async () => {
    let n = 0;
    const s = await server((app) => {
      app.get('/fund/open/realtime', async (req, reply) => {
        n++;
        if (n === 1) return reply.code(502).send({});
        if (n === 2) return req.raw.socket.destroy();
        if (n === 3) return reply.code(502).send({});
        return capitalised([]);
      });
    });
    // random() = 0 gives the lower bound of the jitter: half of each step (40, 80, 160 ms).
    const c = createClient({
      baseUrl: s.baseUrl,
      appkey: 'k',
      retry: { baseDelayMs: 80, random: () => 0 },
    });
    const r = await c.getFundOpenRealtime();
    expect(r.attempts).toBe(4);
    const g = gaps(s.arrivals);
    expect(g[0]).toBeGreaterThanOrEqual(40);
    expect(g[1]).toBeGreaterThanOrEqual(80);
    expect(g[2]).toBeGreaterThanOrEqual(160);
  });

  it('gives up after the last retry with the 429 as a rate_limited error', async () => {
    const s = await server((app) => {
      app.get('/fund/open/realtime', async (_req, reply) =>
        reply.code(429).header('retry-after', '0').send(capitalised(null, 429)),
      );
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k', retry: { retries: 2 } });
    const e = await failure(c.getFundOpenRealtime());
    expect([e.outcome, e.httpStatus, e.attempts, s.arrivals.length]).toEqual([
      'rate_limited',
      429,
      3,
      3,
    ]);
    expect(e.retryAfterMs).toBe(0);
  });

  it('does not retry operations that write (uploads) unless asked to', async () => {
    const s = await server((app) => {
      app.post('/ai/knowledge-bases/:id/documents', async (_req, reply) =>
        reply.code(429).header('retry-after', '0').send({}),
      );
    });
    const input = { path: { knowledge_base_id: 'kb' }, body: { files: [new Blob(['x'])] } };
    const c1 = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
    const e = await failure(c1.uploadKnowledgeBaseDocuments(input));
    expect([e.attempts, s.arrivals.length]).toEqual([1, 1]);
    const c2 = createClient({
      baseUrl: s.baseUrl,
      appkey: 'k',
      retry: { writes: true, retries: 1 },
    });
    const e2 = await failure(c2.uploadKnowledgeBaseDocuments(input));
    expect([e2.attempts, s.arrivals.length]).toEqual([2, 3]);
    // Each attempt carried the whole multipart body.
    expect(s.arrivals.map((a) => String(a.body).includes('name="files"'))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs', async () => {
    const s = await server((app) => {
      app.get('/fund/open/realtime', async (_req, reply) =>
        reply.code(429).header('retry-after', '3600').send({}),
      );
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k', retry: { maxRetryAfterMs: 5000 } });
    const e = await failure(c.getFundOpenRealtime());
    expect([e.attempts, e.retryAfterMs]).toEqual([1, 3_600_000]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-03-18T10:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Tue, 18 Mar 2025 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('client-side pacing', () => {
  it('keeps an operation under its declared limit (5 per second), by server arrival times', async () => {
    const s = await server((app) => {
      app.get('/fund/open/realtime', async () => capitalised([]));
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
    await Promise.all(Array.from({ length: 11 }, () => c.getFundOpenRealtime()));
    const at = s.arrivals.map((a) => a.at);
    expect(at).toHaveLength(11);
    // No window of one second holds more than 5 arrivals.
    for (let i = 0; i + 5 < at.length; i++)
      expect(at[i + 5]! - at[i]!).toBeGreaterThanOrEqual(1000);
  });

  it('keeps every window of the operation: air quality stays under 5 per second too', async () => {
    const s = await server((app) => {
      app.get('/Weather/AirQuality', async () => capitalised([]));
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
    const call = () => c.getAirQuality({ query: { city: 'Beijing' } });
    await Promise.all(Array.from({ length: 7 }, call));
    const at = s.arrivals.map((a) => a.at);
    expect(at).toHaveLength(7);
    // Its own limit is 100 per minute; the service default of 5 per second holds as well.
    for (let i = 0; i + 5 < at.length; i++)
      expect(at[i + 5]! - at[i]!).toBeGreaterThanOrEqual(1000);
  });

  it('honours an override, per operation, and paces retries too', async () => {
    let n = 0;
    const s = await server((app) => {
      app.get('/fund/basicinfo', async (_req, reply) =>
        ++n % 3 === 0 ? reply.code(502).send({}) : capitalised([]),
      );
    });
    const c = createClient({
      baseUrl: s.baseUrl,
      appkey: 'k',
      retry: { baseDelayMs: 1 },
      rateLimit: { overrides: { getFundBasicInfo: { limit: 2, windowMs: 300 } } },
    });
    await Promise.all(Array.from({ length: 6 }, () => c.getFundBasicInfo()));
    const at = s.arrivals.map((a) => a.at);
    expect(at.length).toBeGreaterThan(6);
    for (let i = 0; i + 2 < at.length; i++) expect(at[i + 2]! - at[i]!).toBeGreaterThanOrEqual(300);
  });
});

describe('timeouts', () => {
  it('aborts a request that gets no answer', async () => {
    const s = await server((app) => {
      app.get('/fund/open/realtime', () => new Promise(() => undefined));
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k', timeoutMs: 150 });
    const e = await failure(c.getFundOpenRealtime());
    expect([e.outcome, e.httpStatus, e.attempts]).toEqual(['timeout', undefined, 1]);
  });

  // Garbage collected while the body stalls: signals linked only weakly would never abort it
  // (a call that hung for good, nodejs/undici#4068).
  async function collectingGarbage<T>(p: Promise<T>): Promise<T> {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const every = setInterval(gc, 5);
    try {
      return await p;
    } finally {
      clearInterval(every);
    }
  }
  const stallingBody = (onHeaders?: () => void) =>
    server((app) => {
      app.get('/fund/open/realtime', (_req, reply) => {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'application/json' });
        reply.raw.write('{"DataStatus":', () => onHeaders?.());
      });
    });

  it('aborts a body that stalls after the headers, garbage collected meanwhile', async () => {
    const s = await stallingBody();
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k', timeoutMs: 150 });
    const e = await collectingGarbage(failure(c.getFundOpenRealtime()));
    expect([e.outcome, e.attempts]).toEqual(['timeout', 1]);
  });

  it("the caller's abort ends a stalled body, garbage collected meanwhile", async () => {
    const controller = new AbortController();
    const s = await stallingBody(() => setImmediate(() => controller.abort()));
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k', timeoutMs: 0 });
    const p = c.getFundOpenRealtime(undefined, { signal: controller.signal });
    expect((await collectingGarbage(failure(p))).outcome).toBe('aborted');
  });

  it("reports the caller's abort as aborted", async () => {
    const controller = new AbortController();
    const s = await server((app) => {
      // The caller gives up once the request is in the handler, which never answers.
      app.get('/fund/open/realtime', () => {
        controller.abort();
        return new Promise(() => undefined);
      });
    });
    const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
    const p = c.getFundOpenRealtime(undefined, { signal: controller.signal });
    expect((await failure(p)).outcome).toBe('aborted');
  });
});
