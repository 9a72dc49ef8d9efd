/**
 * Non-exploded query lists are split on their delimiter as sent, before percent-decoding (issue
 * 26, class 7): `?sort_by=%2C` is the one item ",", not two empty (duplicate) items. The suite
 * sends them so: items encoded, the delimiter literal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { serialise } from '../../contract-tests/serialise.ts';
import { serveFixture, type ServedFixture } from './serve-fixture.ts';

let served: ServedFixture;
let url: string;
let model: ServiceModel;
beforeAll(async () => {
  served = await serveFixture('generality/explode-false.yaml');
  model = served.model;
  url = served.url;
});
afterAll(() => served.close());

async function get(pathAndQuery: string) {
  const res = await fetch(url + pathAndQuery);
  return { status: res.status, query: ((await res.json()) as { query?: unknown }).query };
}

describe('non-exploded query lists', () => {
  it('take an encoded delimiter as part of an item', async () => {
    expect(await get('/items?sort_by=%2C')).toEqual({ status: 200, query: { sort_by: [','] } });
    expect(await get('/items?sort_by=a%2Cb,c')).toEqual({
      status: 200,
      query: { sort_by: ['a,b', 'c'] },
    });
    expect((await get('/items?sort_by=a,a')).status).toBe(400); // uniqueItems still holds
  });

  it('split pipe and space lists in either form', async () => {
    expect((await get('/items?pipes=a|b%7Cc')).query).toEqual({ pipes: ['a', 'b', 'c'] });
    expect((await get('/items?spaces=a%20b+c')).query).toEqual({ spaces: ['a', 'b', 'c'] });
  });

  it('are sent by the suite with the items encoded and the delimiter literal', async () => {
    const op = model.operations[0]!;
    const spec = {
      name: 'valid',
      path: {},
      header: {},
      cookie: {},
      query: { sort_by: [',', 'x y'], pipes: ['a', 'c'], spaces: ['d', 'e'] },
    };
    const req = serialise(op, spec, { path: op.path, key: 'none', appkey: 'k', purpose: 't' });
    expect(req.pathAndQuery).toBe('/items?sort_by=%2C,x%20y&pipes=a|c&spaces=d%20e');
    const res = await get(req.pathAndQuery);
    expect(res).toEqual({ status: 200, query: spec.query });
  });
});
