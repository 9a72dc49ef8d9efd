/**
 * A query parameter whose `type` lists null beside another type (a 3.0 `nullable: true`, UniCourt's
 * 25-character dates): the suite writes null as an empty text, which the type list took as the
 * string "" (already a string, so never coerced) and refused for its minLength: 15 findings on one
 * description. Such a parameter is now read as an `anyOf` with a null option is (query-null.test.ts):
 * the empty text is null (the suite's null), any other text is read as the other type. So an
 * empty string sent (Getty Images' `phrase`, `default: ""`) is null's text and comes back as null:
 * the agreement counts them as one request (its allowance 9). A nullable exploded list whose items
 * are never the empty text (sinao.app's list of objects) sent null, `lines=`, was read as one
 * empty item and refused (8 findings: every invalid case of the operation was refused for it first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { emptyRequest } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('query-nullable-type.yaml'));
});
afterAll(() => served?.close());

const call = async (query: Record<string, unknown>) => {
  const op = served.model.operations[0]!;
  const spec = { ...emptyRequest('null'), query };
  const req = serialise(op, spec, { path: op.path, key: 'none', appkey: '', purpose: 'test' });
  const res = await fetch(served.url + req.pathAndQuery);
  return { status: res.status, text: await res.text(), sent: req.pathAndQuery };
};

describe('a query parameter whose type list admits null', () => {
  it('sent null as the suite writes it, reaches the handler as null', async () => {
    const all = { since: null, page: null, lines: null, ids: null };
    const { status, text, sent } = await call(all);
    expect(status, `${sent}: ${text}`).toBe(200);
    expect(JSON.parse(text).query).toEqual(all);
  });

  it('its other values still arrive as sent, and a wrong one is still refused', async () => {
    const since = '2026-11-29T10:00:00+00:00';
    const values = { since, page: 2, lines: [{ amount: 3 }, {}], ids: [4, 5] };
    const ok = await call(values);
    expect(ok.status, ok.text).toBe(200);
    expect(JSON.parse(ok.text).query).toEqual(values);
    const short = await call({ since: '2026-11-29' });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/since/);
  });

  it("a wrong value's 400 says what the non-null option wanted, not that null was wanted too", async () => {
    const short = await call({ since: '2026-11-29' });
    expect(short.status).toBe(400);
    const { detail } = JSON.parse(short.text) as { detail: string };
    // The string option's errors, each once: "must be null", the anyOf's and the if's are gone.
    expect(detail).toBe(
      'querystring/since must NOT have fewer than 25 characters, querystring/since must match format "date-time"',
    );
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
