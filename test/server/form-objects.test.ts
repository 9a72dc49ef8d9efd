/**
 * Object fields of a form body sent in the bracket form (`metadata[k]=v`, deepObject encoding)
 * are gathered into their objects before validation (issue 26, class 2: the mock read only flat
 * fields and refused them), JSON text still reads as JSON, and no bracketed key reaches
 * Object.prototype (body or deepObject query).
 */
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerService, type Handler } from 'dataapi/runtime/server';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

const echo: Handler = async ({ body, query }) => ({ body, query });
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  const model = normalise(await loadSpec(path.join(FIXTURES, 'generality/form-objects.yaml')));
  app = Fastify();
  await registerService(app, {
    model,
    handlers: { addCustomer: echo },
    rateLimit: false,
    insecureAnyKey: true,
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

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
