/**
 * An operation without query parameters has no query schema to compile or run (it would accept
 * every query and fill in nothing): such a route never makes the coercing Ajv, while one with
 * query parameters still validates them.
 */
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { registerService } from 'dataapi/runtime/server';
import { routeSchemas } from '../../runtime/server/validation.ts';
import { echo, modelOf } from './serve-fixture.ts';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } };
const model = modelOf({
  openapi: '3.0.3',
  info: { title: 'query schemas', version: '1' },
  paths: {
    '/plain': { get: { operationId: 'plain', responses: ok } },
    '/paged': {
      get: {
        operationId: 'paged',
        parameters: [{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } }],
        responses: ok,
      },
    },
  },
});
const op = (id: string) => model.operations.find((o) => o.id === id)!;

describe('the query schema of a route', () => {
  it('is left out when the operation has no query parameters, kept when it has', () => {
    expect(routeSchemas(model, op('plain'), new Map())).not.toHaveProperty('querystring');
    expect(routeSchemas(model, op('paged'), new Map()).querystring).toMatchObject({
      properties: { page: { type: 'integer' } },
    });
  });

  it('still lets any query through where none is declared, and checks a declared one', async () => {
    const app = Fastify();
    await registerService(app, {
      model,
      handlers: { plain: echo, paged: echo },
      rateLimit: false,
      compileAtStart: false,
    });
    try {
      const plain = await app.inject({ url: '/plain?anything=1&x' });
      expect(plain.statusCode).toBe(200);
      expect(plain.json()).toMatchObject({ query: { anything: '1', x: '' } });
      expect((await app.inject({ url: '/paged?page=0' })).statusCode).toBe(400);
      expect((await app.inject({ url: '/paged?page=2' })).json()).toMatchObject({
        query: { page: 2 },
      });
    } finally {
      await app.close();
    }
  });
});
