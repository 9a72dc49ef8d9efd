/**
 * Cookie parameters are validated like the others (found on @readme/oas-examples'
 * parameters-extreme: a declared integer cookie took "abc").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const doc = {
  openapi: '3.0.3',
  info: { title: 'cookies', version: '1' },
  paths: {
    '/prefs': {
      get: {
        operationId: 'prefs',
        parameters: [
          {
            name: 'session',
            in: 'cookie',
            required: true,
            schema: { type: 'string', minLength: 3 },
          },
          { name: 'size', in: 'cookie', schema: { type: 'integer', maximum: 10 } },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: {} } } },
        },
      },
    },
  },
};

let served: ServedFixture;
let url: string;
beforeAll(async () => {
  served = await serveDocument(doc);
  url = served.url;
});
afterAll(() => served.close());

const get = async (cookie?: string) => {
  const res = await fetch(`${url}/prefs`, { headers: cookie ? { cookie } : {} });
  return { status: res.status, text: await res.text() };
};

describe('cookie parameters', () => {
  it('accepts declared cookies, coerced to their types, beside others', async () => {
    expect((await get('session=abc; size=4; theme=dark')).status).toBe(200);
    expect((await get('session=abc')).status).toBe(200);
    expect((await get('session=a%20b%20c')).status).toBe(200);
  });

  it('refuses a wrong or missing required one with 400 and its reason', async () => {
    for (const [cookie, why] of [
      ['session=abc; size=abc', 'cookie/size must be integer'],
      ['session=abc; size=11', 'cookie/size must be <= 10'],
      ['session=ab', 'cookie/session must NOT have fewer than 3 characters'],
      [undefined, "must have required property 'session'"],
    ] as const) {
      const res = await get(cookie);
      expect(res.status, cookie).toBe(400);
      expect(res.text, cookie).toContain(why);
    }
  });
});
