/**
 * `Prefer: code=N` the Prism way (README "The mock"): the response the operation declares for N
 * (or its range), else its `default` with status N, else 404 naming the declared statuses; a
 * code that is not three digits is a 422. On the service's description (200 and errors only) and
 * on a small one that declares 201, 204 and a `default`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMock } from 'dataapi/runtime/mock';
import { readEnvelope } from 'dataapi/runtime/shared';
import { normalise } from '../../generator/normalise/index.ts';
import { model } from '../../generated/model.ts';
import { call, startMock, validRequest, type Running } from './helpers.ts';

const air = model.operations.find((o) => o.id === 'getAirQuality')!;

describe('the service description (200 and error statuses declared)', () => {
  let mock: Running;
  beforeAll(async () => {
    mock = await startMock({ rateLimit: false });
  });
  afterAll(() => mock.close());
  const ask = (prefer: string) => call(mock.url, validRequest(model, air), { prefer });

  it('code=200, the success status: the usual answer', async () => {
    const res = await ask('code=200');
    expect(res.status).toBe(200);
    expect(readEnvelope(air, res.body).code).toBe(100);
  });

  it.each(['201', '204', '418'])(
    'code=%s, not declared and no default: 404 naming the declared statuses',
    async (code) => {
      const res = await ask(`code=${code}`);
      expect(res.status).toBe(404);
      const reading = readEnvelope(air, res.body);
      expect(reading.wellFormed).toBe(true);
      expect(reading.description).toContain(`declares no ${code} response`);
      expect(reading.description).toContain('200, 400, 401');
    },
  );

  it.each(['abc', '99', '4290', ''])('code=%s, not three digits: 422', async (code) => {
    const res = await ask(`code=${code}`);
    expect(res.status).toBe(422);
    expect(readEnvelope(air, res.body).description).toContain('a status code is three digits');
  });

  it('the query form __code follows the same rules', async () => {
    const req = validRequest(model, air);
    expect((await call(mock.url, { ...req, path: `${req.path}&__code=418` })).status).toBe(404);
    expect((await call(mock.url, { ...req, path: `${req.path}&__code=x` })).status).toBe(422);
  });
});

const doc = {
  openapi: '3.1.0',
  info: { title: 'codes', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        responses: {
          '200': {
            description: 'updated',
            content: {
              'application/json': { schema: { type: 'object' }, example: { state: 'updated' } },
            },
          },
          '201': {
            description: 'created',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' } } },
                examples: { first: { value: { id: 1 } }, second: { value: { id: 2 } } },
              },
            },
          },
          '204': { description: 'nothing to say' },
        },
      },
      get: {
        operationId: 'listThings',
        responses: {
          '200': {
            description: 'the things',
            content: { 'application/json': { schema: { type: 'array' }, example: [] } },
          },
          default: {
            description: 'any error',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['message'],
                  properties: { message: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
  },
};

describe('a description that declares 201, 204 and default', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    const m = normalise({ file: 'codes.json', locate: () => undefined, document: doc });
    app = await createMock(m, { rateLimit: false });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());
  const send = (method: string, prefer: string) =>
    fetch(`${url}/things`, { method, headers: { prefer } });

  it('code=201: the 201 response with its first example, or the one named', async () => {
    const res = await send('POST', 'code=201');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: 1 });
    const named = await send('POST', 'code=201, example=second');
    expect(named.status).toBe(201);
    expect(await named.json()).toEqual({ id: 2 });
    expect((await send('POST', 'code=201, example=third')).status).toBe(400);
  });

  it('code=204: no content', async () => {
    const res = await send('POST', 'code=204');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('code=200 and no code: the success example', async () => {
    for (const prefer of ['code=200', 'dynamic=false']) {
      const res = await send('POST', prefer);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ state: 'updated' });
    }
  });

  it('code=418, not declared: the default response with status 418; without default 404', async () => {
    const res = await send('GET', 'code=418');
    expect(res.status).toBe(418);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect((await send('POST', 'code=418')).status).toBe(404);
  });

  it('code=abc: 422', async () => {
    expect((await send('POST', 'code=abc')).status).toBe(422);
  });
});
