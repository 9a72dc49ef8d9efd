/**
 * Parameters whose schema is an `enum` with no `type` (Nexmo's `delivered: {enum: [true, false, 0,
 * 1]}`): Ajv coerces text only under a `type`, and the text "true" never equals `true`, so every
 * valid request was refused (2 findings). A text that is no member is now read as the non-text
 * member written as that text; a text no member is written as is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('untyped-enum-param.yaml'));
});
afterAll(() => served?.close());

const post = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(served.url + path, { method: 'POST', headers });
  return { status: res.status, text: await res.text() };
};

describe('a parameter with an enum and no type', () => {
  it('reaches the handler as the member the text stands for', async () => {
    const a = await post('/sms/1?delivered=true', { level: '1.5' });
    expect(a.status, a.text).toBe(200);
    expect(JSON.parse(a.text)).toMatchObject({ query: { delivered: true }, path: { format: 1 } });
    const b = await post('/sms/json?delivered=0');
    expect(b.status, b.text).toBe(200);
    expect(JSON.parse(b.text)).toMatchObject({ query: { delivered: 0 }, path: { format: 'json' } });
  });

  it('a text that stands for no member is still refused', async () => {
    for (const path of ['/sms/json?delivered=yes', '/sms/3?delivered=1', '/sms/json?delivered=2'])
      expect((await post(path)).status, path).toBe(400);
    expect((await post('/sms/json?delivered=1', { level: 'low' })).status).toBe(400);
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
