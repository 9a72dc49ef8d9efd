/**
 * Object fields of a form body sent in the bracket form (`metadata[k]=v`, deepObject encoding)
 * are gathered into their objects before validation (issue 26, class 2: the mock read only flat
 * fields and refused them), JSON text still reads as JSON, and no bracketed key reaches
 * Object.prototype (body or deepObject query).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixture, type ServedFixture } from './serve-fixture.ts';

let served: ServedFixture;
let url: string;
beforeAll(async () => {
  served = await serveFixture('generality/form-objects.yaml');
  url = served.url;
});
afterAll(() => served.close());

async function post(form: string, query = '') {
  const res = await fetch(`${url}/customers${query}`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('form bodies with object fields', () => {
  it('gather the bracket form into objects, coerced and validated', async () => {
    const res = await post(
      'name=Ann&metadata%5Bplan%5D=pro&metadata[seats]=3&address[city]=Oslo&address[zip]=150',
    );
    expect(res.status).toBe(200);
    expect(res.json['body']).toEqual({
      name: 'Ann',
      metadata: { plan: 'pro', seats: '3' },
      address: { city: 'Oslo', zip: 150 },
    });
    expect((await post('name=Ann&address[zip]=north')).status).toBe(400);
  });

  it('still read an object field sent as JSON text', async () => {
    const res = await post(`name=Ann&metadata=${encodeURIComponent('{"plan":"pro"}')}`);
    expect(res.status).toBe(200);
    expect(res.json['body'].metadata).toEqual({ plan: 'pro' });
  });

  it('never write into Object.prototype', async () => {
    await post('name=Ann&metadata[__proto__][polluted]=yes', '?filter[__proto__][polluted]=yes');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
