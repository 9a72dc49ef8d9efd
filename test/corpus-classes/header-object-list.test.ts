/**
 * A header whose schema is a list of objects (openEHR's `openehr-item-tag`): no style writes an
 * object, so the suite and the client write each item as JSON text, joined by commas. The server
 * split the text on every comma, the commas inside the objects too, and refused every valid
 * request ("headers/item-tag/0 must be object"), so an invalid body was refused as a header
 * problem (agreement by construction: 171 findings on the second corpus). The whole text is now
 * read as one JSON list first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from 'dataapi/runtime/server';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

const echoHeader: Handler = async ({ headers }) => ({ tags: headers['item-tag'] ?? null });

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('header-object-list.yaml'), {
    createAgent: echoHeader,
  });
});
afterAll(() => served?.close());

const post = (tag: string, body: unknown = { name: 'a' }) =>
  fetch(`${served.url}/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'item-tag': tag },
    body: JSON.stringify(body),
  });

describe('a header that is a list of objects', () => {
  it('reaches the handler as the list of objects sent', async () => {
    const res = await post('{"key":"category","value":"final"},{"key":"flag","value":"a,b"}');
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(JSON.parse(text)).toEqual({
      tags: [
        { key: 'category', value: 'final' },
        { key: 'flag', value: 'a,b' },
      ],
    });
  });

  it('refuses an item that is no such object, and a body without its field for the body', async () => {
    expect((await post('{"key":"category"}')).status).toBe(400);
    const res = await post('{"key":"k","value":"v"}', {});
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/name/);
  });

  it('agreement by construction: read back equal, refused for its reason', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 3 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
    expect(a.counts.invalid).toBeGreaterThan(0);
  });
});
