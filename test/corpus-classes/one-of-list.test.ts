/**
 * Class 4 of issue 48: a parameter whose schema is `oneOf: [a string, a list of strings]`. Read
 * from text under array coercion, a plain string fits both options (a string, and a list of one
 * string), and `oneOf` refuses what fits both: the mock refused every valid request. Inline or
 * behind a `$ref`, in the path, the query and a header, the mock takes one value and a list of
 * them, and still refuses what fits neither; the suite's own requests pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('one-of-list.yaml');
});
afterAll(() => served?.close());

describe('a parameter that is one value or a list', () => {
  it('takes one value and a list, in the path, the query and a header', async () => {
    for (const path of [
      '/items/abc',
      '/items/abc,def',
      '/items/abc?tag=x',
      '/items/abc?tag=x&tag=y',
      '/labels/abc',
      '/labels/abc,def',
    ]) {
      const got = await send(served.url + path, 'GET', undefined, { 'x-trace': 'abc' });
      expect(got.status, `${path}: ${got.text}`).toBe(200);
    }
  });

  it('refuses what fits neither option', async () => {
    for (const path of ['/items/ABC', '/items/abc,DEF', '/items/abc?tag=X'])
      expect((await send(served.url + path, 'GET')).status, path).toBe(400);
    const header = await send(`${served.url}/items/abc`, 'GET', undefined, { 'x-trace': '1' });
    expect(header.status).toBe(400);
  });
});

describe('contract --spec on the description', () => {
  it('passes against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('one-of-list.yaml'));
    expectPassed(run, tail);
  }, 120_000);
});
