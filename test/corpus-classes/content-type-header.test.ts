/**
 * A response header named Content-Type: OpenAPI says it SHALL be ignored (the content map's keys
 * are the media types). Judged as declared, its enum of bare media types refused every JSON
 * answer (`application/json; charset=utf-8`, RFC 9110 §8.3.1): corpus openEHR, 4 descriptions.
 * The model leaves it out with a finding; the suite passes against the mock and warns with it.
 */
import { describe, expect, it } from 'vitest';
import { expectPassed, fixture, modelOf, ownSuite } from './helpers.ts';

describe('a response that declares its Content-Type as a header', () => {
  it('is read without that header, with a finding naming where it is', async () => {
    const model = await modelOf('content-type-header.yaml');
    const headers = model.operations.flatMap((op) =>
      op.responses.flatMap((r) => r.headers.map((h) => `${op.id} ${r.status} ${h.name}`)),
    );
    expect(headers).toEqual(['listTemplates 200 ETag']);
    const found = model.findings
      .filter((f) => f.code === 'header-content-type')
      .map((f) => `${f.operation} ${f.pointer}`);
    expect(found).toEqual([
      'listTemplates /paths/~1templates/get/responses/200/headers/Content-Type',
      'getTemplate /paths/~1templates~1{id}/get/responses/200/headers/content-type',
    ]);
  });

  it('passes the suite and its fuzz against its own mock, with the warning', async () => {
    const { run, tail } = await ownSuite(fixture('content-type-header.yaml'), { fuzz: true });
    expectPassed(run, tail);
    const codes = new Set(run.result?.warnings?.map((w) => w.code));
    expect(codes, tail).toContain('header-content-type');
  }, 120_000);
});
