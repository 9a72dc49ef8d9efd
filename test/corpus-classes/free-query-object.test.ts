/**
 * A free-form query object (`type: object`, no properties, form exploded: openEHR's
 * `query_parameters`) whose example names another query parameter (`ehr_id`). The server reads
 * such a name as that parameter's, never the object's; the suite wrote it from the object too,
 * so `ehr_id` went twice, was read as a list and refused (`must be string`). The suite now leaves
 * out of a free-form object every name another query parameter takes (model/query-objects.ts
 * unsentQueryNames), as it does a declared property that clashes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { emptyRequest, validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('free-query-object.yaml'));
});
afterAll(() => served?.close());

describe('a free-form query object whose value names another parameter', () => {
  it('is sent without that name; the parameter is sent once and read as sent', async () => {
    const op = served.model.operations[0]!;
    const ehr = '7d44b88c-4199-4bad-97dc-d78268e01398';
    const spec = {
      ...emptyRequest('free'),
      query: { ehr_id: ehr, query_parameters: { ehr_id: ehr, systolic_bp: 140 } },
    };
    const req = serialise(op, spec, {
      path: op.path,
      key: 'none',
      appkey: '',
      purpose: 'test',
      model: served.model,
    });
    expect(req.pathAndQuery.match(/ehr_id=/g)).toHaveLength(1);
    const res = await fetch(served.url + req.pathAndQuery);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const query = (JSON.parse(text) as { query: Record<string, unknown> }).query;
    // A free-form object's values are text: no schema says what else they are.
    expect(query['ehr_id']).toBe(ehr);
    expect(query['query_parameters']).toEqual({ systolic_bp: '140' });
  });

  it("the suite's own valid request draws the object without the other parameter's name", () => {
    const op = served.model.operations[0]!;
    for (const spec of validRequests(served.model, op))
      expect(Object.keys(spec.query['query_parameters'] as object)).not.toContain('ehr_id');
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
