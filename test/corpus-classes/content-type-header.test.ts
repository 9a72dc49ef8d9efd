/**
 * A response header named Content-Type: OpenAPI says it SHALL be ignored (the content map's keys
 * are the media types). Judged as declared, its enum of bare media types refused every JSON
 * answer (`application/json; charset=utf-8`, RFC 9110 §8.3.1): corpus openEHR, 4 descriptions.
 * The model leaves it out with a finding; the suite passes against the mock and warns with it.
 */
import { describe, expect, it } from 'vitest';
import { failedOf, reportDir, runCli } from '../contract/harness.ts';
import { fixture, modelOf } from './helpers.ts';

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
    const run = await runCli(
      'contract',
      [
        '--spec',
        fixture('content-type-header.yaml'),
        '--fuzz',
        '3',
        '--seed',
        '48',
        '--report-dir',
        reportDir('content-type-header'),
      ],
      'corpus-content-type-header',
    );
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(failedOf(run), tail).toEqual([]);
    expect(run.result?.summary.toolkitFaults, tail).toBe(0);
    const codes = new Set(run.result?.warnings?.map((w) => w.code));
    expect(codes, tail).toContain('header-content-type');
    expect(run.code, tail).toBe(0);
  }, 120_000);
});
