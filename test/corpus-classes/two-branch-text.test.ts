/**
 * A query text that fits two options of a union (OpenSearch: `track_total_hits` is `oneOf: [boolean,
 * integer]`; `wait_for_active_shards` a StringifiedInteger or `all` or null). Ajv runs every option
 * and its coercion rewrites the value in place, so a later option rewrote what an earlier one had
 * taken: `true` reached the handler as 1, and `+4378` as the text "4378" (the `const: all` option
 * coerced the integer back to text). Each option is now tried only when no earlier one fits
 * (model/validate-views.ts inTurn): the handler gets the first option's reading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('two-branch-text.yaml'));
});
afterAll(() => served?.close());

const read = async (query: string) => {
  const res = await fetch(`${served.url}/_search?${query}`);
  const text = await res.text();
  expect(res.status, `${query}: ${text}`).toBe(200);
  return (JSON.parse(text) as { query: Record<string, unknown> }).query;
};

describe('a query text that fits two options of a union', () => {
  it('is read as the first option that fits, not rewritten by the next', async () => {
    expect(await read('track_total_hits=true')).toEqual({ track_total_hits: true });
    expect(await read('track_total_hits=false')).toEqual({ track_total_hits: false });
    expect(await read('track_total_hits=7')).toEqual({ track_total_hits: 7 });
    expect(await read('wait_for_active_shards=%2B4378')).toEqual({ wait_for_active_shards: 4378 });
    expect(await read('wait_for_active_shards=12')).toEqual({ wait_for_active_shards: 12 });
    expect(await read('wait_for_active_shards=all')).toEqual({ wait_for_active_shards: 'all' });
    expect(await read('wait_for_active_shards=')).toEqual({ wait_for_active_shards: null });
  });

  it('a text no option takes is still refused', async () => {
    const res = await fetch(`${served.url}/_search?track_total_hits=x`);
    expect(res.status).toBe(400);
    // Worded as before the options were tried in turn: the guard's own `if` is not reported.
    expect((await res.json()) as unknown).toMatchObject({
      detail:
        'querystring/track_total_hits must be boolean, querystring/track_total_hits must be integer, querystring/track_total_hits must match a schema in anyOf',
    });
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 8 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
