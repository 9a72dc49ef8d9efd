/**
 * Parameters of any description: coercion from text, `oneOf` alternatives that both fit once
 * coerced, header parameters, odd path parameter names, literal colons, optional bodies and
 * form bodies. Built from a small inline OpenAPI 3.1 document.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerService, type Handler } from 'dataapi/runtime/server';
import { normalise } from '../../generator/normalise/index.ts';

const doc = {
  openapi: '3.1.0',
  info: { title: 'params', version: '1' },
  paths: {
    '/w/{workflow-id}': {
      get: {
        operationId: 'getWorkflow',
        parameters: [
          {
            name: 'workflow-id',
            in: 'path',
            required: true,
            schema: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
          },
          { name: 'n', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          {
            name: 'X-Trace',
            in: 'header',
            required: true,
            schema: { type: 'string', minLength: 3 },
          },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/things:batch': {
      post: {
        operationId: 'batch',
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: { type: 'object', properties: { a: { type: 'integer' } } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/form': {
      post: {
        operationId: 'form',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  },
};

const echo: Handler = async ({ path, query, headers, body }) => ({
  path,
  query,
  trace: headers['x-trace'],
  body,
});
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  const model = normalise({ file: 'inline.json', locate: () => undefined, document: doc });
  app = Fastify();
  await registerService(app, {
    model,
    handlers: { getWorkflow: echo, batch: echo, form: echo },
    rateLimit: false,
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const get = async (path: string, headers: Record<string, string> = { 'x-trace': 'abc' }) => {
  const res = await fetch(url + path, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('parameters', () => {
  it('a oneOf of integer and string takes both a number and a word; odd names map back', async () => {
    const numeric = await get('/w/123');
    expect(numeric.status).toBe(200);
    expect(String((numeric.body.path as Record<string, unknown>)['workflow-id'])).toBe('123');
    expect((await get('/w/main.yml')).body.path).toEqual({ 'workflow-id': 'main.yml' });
  });

  it('query values are coerced to their types, arrays from repeats; bad ones are 400', async () => {
    const ok = await get('/w/1?n=5&tags=a&tags=b&unknown=1');
    expect(ok.status).toBe(200);
    expect(ok.body.query).toMatchObject({ n: 5, tags: ['a', 'b'], unknown: '1' });
    expect((await get('/w/1?tags=a')).body.query).toMatchObject({ tags: ['a'] });
    expect((await get('/w/1?n=0')).status).toBe(400);
    expect((await get('/w/1?n=x')).status).toBe(400);
  });

  it('required header parameters are validated', async () => {
    expect((await get('/w/1', {})).status).toBe(400);
    expect((await get('/w/1', { 'x-trace': 'ab' })).status).toBe(400);
    expect((await get('/w/1', { 'x-trace': 'abcd' })).body.trace).toBe('abcd');
  });

  it('a literal colon in a path; an optional body may be absent but not wrong', async () => {
    expect((await fetch(`${url}/things:batch`, { method: 'POST' })).status).toBe(200);
    const bad = await fetch(`${url}/things:batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":"x"}',
    });
    expect(bad.status).toBe(400);
  });

  it('form bodies are parsed and coerced', async () => {
    const res = await fetch(`${url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'n=4&extra=y',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { body: unknown }).body).toEqual({ n: 4, extra: 'y' });
    const bad = await fetch(`${url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'n=four',
    });
    expect(bad.status).toBe(400);
  });
});
