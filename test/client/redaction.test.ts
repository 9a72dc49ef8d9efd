/**
 * The key never appears in an error: not in its message, stack, JSON or inspection, whether the
 * key travelled in the query, a header or the body, and even when the server echoes it back.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, DataApiError } from '../../generated/client/index.ts';
import { capitalised, SECRET, startServer } from './helpers.ts';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer((app) => {
    // Echo the key back everywhere a careless gateway might.
    app.get('/fund/open/realtime', async (req, reply) =>
      reply.code(401).send(capitalised(null, 104, { StatusDescription: `bad key ${req.url}` })),
    );
    app.get('/fund/basicinfo', async (req) =>
      capitalised(null, 110, { StatusDescription: `failed for ${JSON.stringify(req.query)}` }),
    );
    app.post('/education/exam-question-similarity', async (req, reply) =>
      reply.code(500).send({ message: `key ${String(req.headers['x-service-appkey'])}` }),
    );
    app.post('/ai/v1/articles/extract', async (req, reply) =>
      reply.code(400).send({ echo: req.body }),
    );
    app.get('/fund/historyminute', () => new Promise(() => undefined));
    app.get('/fund/basic/index', async (_req, reply) =>
      reply.type('application/json').send(`not json ${SECRET}`),
    );
  });
});
afterAll(() => s.close());

const forms = [SECRET, encodeURIComponent(SECRET), encodeURIComponent(SECRET).replace(/%20/g, '+')];

async function error(p: Promise<unknown>): Promise<DataApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DataApiError);
  return e as DataApiError;
}

function expectNoKey(e: DataApiError) {
  const views = [
    e.message,
    String(e.stack),
    JSON.stringify(e),
    inspect(e, { depth: 5 }),
    String(e),
  ];
  for (const view of views) for (const form of forms) expect(view).not.toContain(form);
}

describe('the key is redacted from every error', () => {
  // A short timeout only where the server never answers: real answers get the default.
  const c = (timeoutMs?: number) =>
    createClient({
      baseUrl: s.baseUrl,
      appkey: SECRET,
      retry: false,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });

  it('query key, HTTP 401 echoing the URL', async () => {
    const e = await error(c().getFundOpenRealtime());
    expect(e.outcome).toBe('wrong_key');
    expect(e.url).toContain('appkey=***');
    expectNoKey(e);
  });

  it('business failure echoing the query', async () => {
    const e = await error(c().getFundBasicInfo());
    expect(e.businessCode).toBe(110);
    expectNoKey(e);
  });

  it('header key echoed in a 500 body', async () => {
    const e = await error(c().compareExamQuestions({ body: { exam1: 'a', exam2: 'b' } }));
    expect(e.httpStatus).toBe(500);
    expect(e.body).toContain('key ***');
    expectNoKey(e);
  });

  it('body key echoed in a 400 body', async () => {
    const e = await error(
      c().extractArticle({ body: { url: 'https://a.example/' } }, { keyIn: 'body' }),
    );
    expect(e.body).toContain('***');
    expectNoKey(e);
  });

  it('timeout, network failure and an unreadable body', async () => {
    expectNoKey(await error(c(200).getFundHistoryMinute()));
    expectNoKey(await error(c().getFundBasicIndex()));
    const dead = createClient({ baseUrl: 'http://127.0.0.1:9', appkey: SECRET, retry: false });
    const e = await error(dead.getFundOpenRealtime());
    expect(e.outcome).toBe('network_error');
    expectNoKey(e);
  });
});
