/**
 * Filling defaults remembers, per schema, how each combination of missing fields ended (so the
 * request's path skips the second validation): every request still gets what the first did, with
 * its own copy of an object default, and a schema whose verdict depends on the other fields
 * (`maxProperties`) is judged each time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from 'dataapi/runtime/server';
import { callJson, serveDocument, echo, type ServedFixture } from './serve-fixture.ts';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } };
const jsonBody = (schema: object) => ({
  required: true,
  content: { 'application/json': { schema } },
});
const document = {
  openapi: '3.0.3',
  info: { title: 'defaults again', version: '1' },
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        parameters: [
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 1, default: 0 } },
          { name: 'page', in: 'query', schema: { type: 'integer', default: 3 } },
        ],
        responses: ok,
      },
    },
    '/tags': {
      post: {
        operationId: 'addTags',
        requestBody: jsonBody({
          type: 'object',
          properties: {
            name: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
          },
        }),
        responses: ok,
      },
    },
    '/few': {
      post: {
        operationId: 'addFew',
        requestBody: jsonBody({
          type: 'object',
          maxProperties: 2,
          properties: {
            a: { type: 'string' },
            b: { type: 'string' },
            c: { type: 'string', default: 'x' },
          },
        }),
        responses: ok,
      },
    },
  },
};

// Changes the object default it was given: the next request must not see that.
const addTags: Handler = async (input) => {
  (input.body as { tags: string[] }).tags.push('changed');
  return echo(input);
};

let served: ServedFixture;
beforeAll(async () => {
  served = await serveDocument(document, { listItems: echo, addFew: echo, addTags });
});
afterAll(() => served.close());

const call = (p: string, body?: unknown) => callJson(served.url, p, body);

describe('defaults filled again', () => {
  it('are the same for every request leaving out the same fields', async () => {
    for (const [p, query] of [
      ['/items', { page: 3 }],
      ['/items?page=2', { page: 2 }],
      ['/items', { page: 3 }],
      ['/items?offset=4', { offset: 4, page: 3 }],
      ['/items?page=2', { page: 2 }],
      ['/items', { page: 3 }],
    ] as const) {
      const res = await call(p);
      expect(res.status).toBe(200);
      expect(res.body['query']).toEqual(query);
    }
  });

  it('give each request its own copy of an object default', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await call('/tags', { name: 'n' });
      expect(res.status).toBe(200);
      expect(res.body['body']).toEqual({ name: 'n', tags: ['a', 'changed'] });
    }
  });

  it('are judged with the other fields where the schema counts them', async () => {
    for (let i = 0; i < 2; i++) {
      const one = await call('/few', { a: '1' });
      expect(one.body['body']).toEqual({ a: '1', c: 'x' });
      const two = await call('/few', { a: '1', b: '2' });
      expect(two.status).toBe(200);
      expect(two.body['body']).toEqual({ a: '1', b: '2' });
    }
  });
});
