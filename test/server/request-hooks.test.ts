/**
 * What every request pays for: a description with an upload still gives its other routes no
 * hooks of @fastify/multipart's disk mode (an onRequest listening for the connection's close and
 * an onResponse, both cleaning up temporary files this server never makes), and uploads are read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerService } from 'dataapi/runtime/server';
import { echo, modelOf } from './serve-fixture.ts';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } };
const model = modelOf({
  openapi: '3.0.3',
  info: { title: 'hooks', version: '1' },
  paths: {
    '/items': { get: { operationId: 'listItems', responses: ok } },
    '/files': {
      post: {
        operationId: 'upload',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  note: { type: 'string' },
                  file: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
  },
});

let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  app = Fastify();
  await registerService(app, {
    model,
    handlers: {
      listItems: echo,
      upload: async (input) => ({ body: input.body, files: input.files?.map((f) => f.size) }),
    },
    rateLimit: false,
    insecureAnyKey: true,
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('request hooks', () => {
  it('of the multipart plugin are not on every route', () => {
    const routes = app.printRoutes({ includeHooks: true, commonPrefix: false });
    // The operations' route (one per method, dispatch.ts), which the GET serves through.
    const start = routes.indexOf('* (');
    expect(routes.slice(start)).toMatch(/^\* \([^)]*\bGET\b/);
    const items = routes.slice(start, routes.indexOf('\n/', start + 1) >>> 0);
    expect(items).toContain('(onRequest)');
    expect(items).not.toContain('(onResponse)');
  });

  it('leave uploads read', async () => {
    const form = new FormData();
    form.append('note', 'hi');
    form.append('file', new Blob([new Uint8Array(5)]), 'a.bin');
    const res = await fetch(`${url}/files`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: { note: 'hi' }, files: [5] });
  });
});
