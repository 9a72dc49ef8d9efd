/**
 * Query parameters whose schema admits null (`anyOf: [boolean, null]`, a date-time or null, a
 * `content: application/json` object or null: Mistral's, generated from Python's Optional). The
 * suite wrote null as the text "null", which no such schema takes from text, and the server read
 * a JSON parameter's `null` as that text: every valid request with a null drawn was refused (36
 * findings on the second corpus). Null is now an empty text, as form fields write it, and a JSON
 * parameter's text is any JSON value. The null option no longer turns `false` into null (Ajv runs
 * every option of an anyOf, coercing in place): the first option that fits is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { emptyRequest } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('query-null.yaml'));
});
afterAll(() => served?.close());

const read = async (query: Record<string, unknown>) => {
  const op = served.model.operations[0]!;
  const spec = { ...emptyRequest('null'), query };
  const req = serialise(op, spec, { path: op.path, key: 'none', appkey: '', purpose: 'test' });
  const res = await fetch(served.url + req.pathAndQuery);
  const text = await res.text();
  expect(res.status, `${req.pathAndQuery}: ${text}`).toBe(200);
  return (JSON.parse(text) as { query: Record<string, unknown> }).query;
};

describe('a query parameter that may be null', () => {
  it('sent null as the suite writes it, reaches the handler as null', async () => {
    expect(await read({ archived: null, since: null, metadata: null })).toEqual({
      archived: null,
      since: null,
      metadata: null,
    });
  });

  it('its other values still arrive as sent', async () => {
    const since = '2026-11-29T10:00:00Z';
    expect(await read({ archived: false, since, metadata: { a: 1 } })).toEqual({
      archived: false,
      since,
      metadata: { a: 1 },
    });
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
