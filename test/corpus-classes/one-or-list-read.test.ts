/**
 * A parameter that is one value or a list of them (`anyOf`/`oneOf` of a string and a list of
 * strings: OpenSearch's `Names`, Braintrust's `ids`) reaches the handler as it was sent: one value
 * as that value, a list as a list. Ajv runs every option of an `anyOf`, and under array coercion
 * the list option rewrote "hem" (taken by the string option) into ["hem"]: the handler got a list
 * where one value was sent (agreement by construction: 175 + 62 findings on the second corpus).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

const ID = '11af119d-0008-4000-92a2-f0bb3299b62c';
const ID2 = '22af119d-0008-4000-92a2-f0bb3299b62c';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('one-or-list-read.yaml'));
});
afterAll(() => served?.close());

const echoed = async (path: string) => {
  const res = await fetch(served.url + path);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as { path: Record<string, unknown>; query: Record<string, unknown> };
};

describe('one value or a list of them', () => {
  it('one value reaches the handler as that value, in the path and the query', async () => {
    const got = await echoed(`/aliases/hem?ids=${ID}&size=5`);
    expect(got.path).toEqual({ name: 'hem' });
    expect(got.query).toEqual({ ids: ID, size: 5 });
  });

  it('a list reaches it as a list, and what fits neither option is refused', async () => {
    const got = await echoed(`/aliases/hem,dem?ids=${ID}&ids=${ID2}&size=5&size=6`);
    expect(got.path).toEqual({ name: ['hem', 'dem'] });
    expect(got.query).toEqual({ ids: [ID, ID2], size: [5, 6] });
    for (const path of ['/aliases/HEM', '/aliases/hem,DEM', '/aliases/hem?ids=x&ids=y'])
      expect((await fetch(served.url + path)).status, path).toBe(400);
  });

  it('agreement by construction: what the suite sends is read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 3 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
    expect(a.counts.parameters).toBeGreaterThan(0);
  });
});
