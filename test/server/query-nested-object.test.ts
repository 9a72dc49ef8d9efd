/**
 * An exploded query object with an object-valued property (corpus: gerermesaffaires.com's
 * `QueryContext` with `Filters`): form style has no way to write the nested object, so the suite
 * and the generated client send it as JSON text; the server read it as a string and refused its
 * own client's request ("QueryContext/Filters must be object").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const doc = {
  openapi: '3.0.3',
  info: { title: 'nested query object', version: '1' },
  paths: {
    '/search': {
      get: {
        operationId: 'search',
        parameters: [
          {
            name: 'ctx',
            in: 'query',
            style: 'form',
            explode: true,
            schema: {
              type: 'object',
              properties: {
                Query: { type: 'string' },
                Filters: { type: 'object', properties: { kind: { type: 'string' } } },
              },
            },
          },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: {} } } },
        },
      },
    },
  },
};

let served: ServedFixture;
beforeAll(async () => {
  served = await serveDocument(doc);
});
afterAll(() => served?.close());

it('reads the nested object from its JSON text', async () => {
  const filters = encodeURIComponent(JSON.stringify({ kind: 'folder' }));
  const res = await fetch(`${served.url}/search?Query=x&Filters=${filters}`);
  const body = (await res.json()) as { query?: unknown };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect((body.query as { ctx?: unknown }).ctx).toEqual({
    Query: 'x',
    Filters: { kind: 'folder' },
  });
  // Not JSON: still refused by the schema.
  expect((await fetch(`${served.url}/search?Filters=plain`)).status).toBe(400);
});
