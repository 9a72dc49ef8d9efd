/**
 * API keys in the query (the valid-refused path class, 392 findings on two descriptions).
 * fec.gov: one requirement names two schemes that read the same query parameter (and a header):
 * the suite wrote `api_key` twice, which the server reads as a list ("must be string"). Trello:
 * `key` and `token` are alternatives under security, yet both are required query parameters: the
 * suite sent one requirement's key only, and the server refused the request for the other.
 */
import { describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { emptyRequest, type KeyMode } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { serveBoth } from './helpers.ts';

const served = serveBoth('security-query-keys.yaml');

const request = (id: string, key: KeyMode) => {
  const op = served.mock.model.operations.find((o) => o.id === id)!;
  const spec = { ...emptyRequest('keys'), path: id === 'getAction' ? { idAction: 'a1' } : {} };
  return serialise(op, spec, { path: op.path, key, appkey: 'corpus-key', purpose: 'test' });
};
const status = async (url: string, id: string, key: KeyMode) => {
  const req = request(id, key);
  const res = await fetch(url + req.pathAndQuery, { headers: req.headers });
  return `${res.status} ${req.pathAndQuery}`;
};

describe('API keys in the query', () => {
  it('one place of a requirement is written once, every required key parameter is sent', () => {
    expect(request('listAudits', 'key').pathAndQuery).toBe('/audits?api_key=corpus-key');
    expect(request('listAudits', 'key').headers['X-Api-Key']).toBe('corpus-key');
    expect(request('getAction', 'key').pathAndQuery).toBe(
      '/actions/a1?key=corpus-key&token=corpus-key',
    );
    expect(request('getAction', 'none').pathAndQuery).toBe('/actions/a1');
  });

  it('the mock and the server stubs take the suite request, and refuse it without the key', async () => {
    for (const url of [served.mock.url, served.server.url])
      for (const id of ['listAudits', 'getAction']) {
        expect(await status(url, id, 'key')).toMatch(/^200 /);
        expect(await status(url, id, 'none')).toMatch(/^401 /);
      }
  });

  it('agreement by construction: no finding', async () => {
    const a = await agreementOf(served.mock.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
