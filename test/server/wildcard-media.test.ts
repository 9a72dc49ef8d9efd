/**
 * Bodies declared with a wildcard media type (`application/*+json`, `* /*`) on several operations
 * (corpus: vtex.local's Subscriptions API): every wildcard is one catch-all body parser, so the
 * second operation's registration threw "Content type parser '/.*\/' already present" and the
 * server did not start at all; and a body of a type inside the range (application/vnd.x+json for
 * application/*+json) was refused with 415.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const body = (type: string) => ({
  required: true,
  content: { [type]: { schema: { type: 'object', properties: { n: { type: 'integer' } } } } },
});
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } };
const doc = {
  openapi: '3.0.3',
  info: { title: 'wildcard media types', version: '1' },
  paths: {
    '/a': { post: { operationId: 'a', requestBody: body('application/*+json'), responses: ok } },
    '/b': { post: { operationId: 'b', requestBody: body('application/*+json'), responses: ok } },
    '/c': { post: { operationId: 'c', requestBody: body('*/*'), responses: ok } },
  },
};

let served: ServedFixture;
beforeAll(async () => {
  served = await serveDocument(doc);
});
afterAll(() => served?.close());

it('the server starts, and a body of a matching type reaches each operation', async () => {
  for (const p of ['/a', '/b']) {
    const res = await fetch(served.url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.thing+json' },
      body: '{"n":1}',
    });
    expect(res.status, p).toBe(200);
    expect(((await res.json()) as { body: unknown }).body).toEqual({ n: 1 });
  }
});
