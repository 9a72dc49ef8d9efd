/**
 * A path parameter is never empty: find-my-way lets `/flows/` match `/flows/{id}` with id "",
 * so a wrong-method probe of `POST /flows/` got that template's 400 instead of 405 (corpus:
 * amazonaws.com/migrationhuborchestrator). `/flows/` is its own path: 405 with its Allow when it
 * has other methods, 404 when it has none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } };
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } };
const doc = {
  openapi: '3.0.3',
  info: { title: 'empty path parameters', version: '1' },
  paths: {
    '/flows/': { post: { operationId: 'createFlow', responses: ok } },
    '/flows/{id}': { get: { operationId: 'getFlow', parameters: [id], responses: ok } },
    '/things/{id}': { get: { operationId: 'getThing', parameters: [id], responses: ok } },
  },
};

let served: ServedFixture;
beforeAll(async () => {
  served = await serveDocument(doc);
});
afterAll(() => served.close());

it('GET /flows/ is a wrong method of POST /flows/, not getFlow with an empty id', async () => {
  const res = await fetch(`${served.url}/flows/`);
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST');
  expect((await fetch(`${served.url}/flows/f1`)).status).toBe(200);
  expect((await fetch(`${served.url}/flows/`, { method: 'POST' })).status).toBe(200);
});

it('GET /things/ is no operation at all: 404', async () => {
  expect((await fetch(`${served.url}/things/`)).status).toBe(404);
  expect((await fetch(`${served.url}/things/t1`)).status).toBe(200);
});
