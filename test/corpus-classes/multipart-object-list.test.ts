/**
 * A multipart field that is a list of objects (Rocket.Chat's `permissions`), sent as the suite
 * sends it: one part per item, each its object as JSON. With one item the server read one text,
 * parsed it to an object, and a list schema's reading of an object of other keys dropped it: the
 * handler got no `permissions` at all. One part of a list field is now a list of one
 * (runtime/server/multipart.ts); a part holding a whole JSON list is still that list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('multipart-object-list.yaml'));
});
afterAll(() => served?.close());

const post = async (parts: [string, string][]) => {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const res = await fetch(`${served.url}/apps`, { method: 'POST', body: form });
  const text = await res.text();
  return { status: res.status, text, body: (JSON.parse(text) as { body?: unknown }).body };
};

describe('a multipart field that is a list of objects', () => {
  it('one part is a list of one object', async () => {
    const one = await post([
      ['url', 'https://example.com/app.zip'],
      ['permissions', '{"name":"read"}'],
    ]);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({
      url: 'https://example.com/app.zip',
      permissions: [{ name: 'read' }],
    });
  });

  it('two parts are a list of two; one part holding a JSON list is that list', async () => {
    const two = await post([
      ['permissions', '{"name":"read"}'],
      ['permissions', '{"name":"write"}'],
    ]);
    expect(two.body).toEqual({ permissions: [{ name: 'read' }, { name: 'write' }] });
    const whole = await post([['permissions', '[{"name":"read"},{"name":"write"}]']]);
    expect(whole.body).toEqual({ permissions: [{ name: 'read' }, { name: 'write' }] });
  });

  it('a part that is no object is refused', async () => {
    const bad = await post([['permissions', 'read']]);
    expect(bad.status, bad.text).toBe(400);
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 8 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
