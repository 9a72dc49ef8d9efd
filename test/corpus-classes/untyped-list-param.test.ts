/**
 * A query parameter whose schema has `items` and no `type` (PeerTube's `uuids`): the suite writes
 * the list it drew, one pair per item, but the server did not know the schema for a list (Ajv
 * wraps one value in a list only under `type: array`), so a list of one came back as its item.
 * `items` now makes a list as `properties` makes an object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('untyped-list-param.yaml'));
});
afterAll(() => served?.close());

const query = async (q: string) => {
  const res = await fetch(`${served.url}/search/videos?${q}`);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return (JSON.parse(text) as { query: unknown }).query;
};

describe('a query list with items and no type', () => {
  it('a list of one reaches the handler as a list', async () => {
    expect(await query('uuids=ref&tags=a')).toEqual({ uuids: ['ref'], tags: ['a'] });
  });

  it('longer lists too', async () => {
    expect(await query('uuids=a&uuids=b&tags=c,d')).toEqual({
      uuids: ['a', 'b'],
      tags: ['c', 'd'],
    });
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 6 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
