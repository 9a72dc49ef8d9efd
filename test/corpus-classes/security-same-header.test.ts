/**
 * One security requirement naming two schemes that travel in the same header (PagerDuty SCIM: an
 * apiKey named `Authorization` and http bearer, required together). No request can carry two
 * credentials in one header: the mock refused every request the suite sent ("Wrong appkey").
 * Read as alternatives with a finding: either credential is taken (a bearer token recognised as
 * one, not as an apiKey of that header), none and a wrong one are not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('security-same-header.yaml');
});
afterAll(() => served?.close());

describe('two schemes required together in the same header', () => {
  it('are read as alternatives, with a finding', () => {
    const op = served.model.operations.find((o) => o.id === 'getSchemas')!;
    expect(op.auth.requirements.map((r) => r.map((t) => t.in))).toEqual([['header'], ['bearer']]);
    expect(served.model.findings.map((f) => `${f.code} ${f.operation} ${f.pointer}`)).toEqual([
      'security-same-header createUser /security/0',
      'security-same-header getSchemas /security/0',
    ]);
  });

  it('take either credential, and refuse none or a wrong one', async () => {
    const url = `${served.url}/Schemas`;
    expect((await send(url, 'GET', undefined, { authorization: 'corpus-key' })).status).toBe(200);
    const bearer = { authorization: 'Bearer corpus-key' };
    expect((await send(url, 'GET', undefined, bearer)).status).toBe(200);
    expect((await send(url, 'GET')).status).toBe(401);
    expect((await send(url, 'GET', undefined, { authorization: 'nope' })).status).toBe(401);
  });

  it('passes the suite and its fuzz against its own mock, with the warning', async () => {
    const { run, tail } = await ownSuite(fixture('security-same-header.yaml'), { fuzz: true });
    expectPassed(run, tail);
    const codes = new Set(run.result?.warnings?.map((w) => w.code));
    expect(codes, tail).toContain('security-same-header');
  }, 120_000);
});
