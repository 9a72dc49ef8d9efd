/**
 * Negative cases from a string `format` and a whole-body `null` (docs/field.md Alertmanager V3,
 * V4, L2): derived from the schemas, refused by the embedded mock, and judged as the catalogue
 * says against a real server (format-server.ts): a format the target does not assert is a warning
 * (`format-not-asserted`), a refusal with an undeclared status the description's silence
 * (`undeclared-status`), a 5xx on it and an accepted `null` body are failures.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { negativeCases } from '../../contract-tests/negatives.ts';
import { FORMAT_NEGATIVES, formatNegative } from '../../contract-tests/format-negatives.ts';
import { createSchemaValidator } from '../../model/validate.ts';
import { failedOf, find, ROOT, runCli, type CliRun } from './harness.ts';
import { startFormatServer, type FormatServer } from './format-server.ts';

const SPEC = 'test/fixtures/negatives/formats.yaml';

async function labelsOf(id: string): Promise<string[]> {
  const m = normalise(await loadSpec(path.join(ROOT, SPEC)));
  return negativeCases(
    m,
    m.operations.find((o) => o.operationId === id)!,
  ).map((c) => c.label);
}

describe('cases derived from formats and a null body', () => {
  it('a uuid path parameter, a date-time query parameter, a required array body sent as null', async () => {
    expect(await labelsOf('getSilence')).toContain('path silenceId="not-a-uuid" (not format uuid)');
    expect(await labelsOf('listEvents')).toContain(
      'query since="not-a-date-time" (not format date-time)',
    );
    expect(await labelsOf('postAlerts')).toContain('body=null (not an array)');
  });

  it('each value is refused by the toolkit validator (so by the mock), and kept within lengths and patterns', async () => {
    const m = normalise(await loadSpec(path.join(ROOT, SPEC)));
    const validator = createSchemaValidator(m, { coerceTypes: 'array' });
    for (const [format, value] of Object.entries(FORMAT_NEGATIVES))
      expect(validator.compile({ type: 'string', format })(value), format).toBe(false);
    expect(formatNegative({ type: 'string', format: 'uuid', maxLength: 5 })).toBeUndefined();
    expect(formatNegative({ type: 'string', format: 'uuid', enum: ['a'] })).toBeUndefined();
    expect(formatNegative({ type: 'string', format: 'int32' })).toBeUndefined();
    // A value the pattern refuses too is invalid by an assertion: a pattern case, failed if taken.
    expect(formatNegative({ type: 'string', format: 'uuid', pattern: '^[0-9a-f-]+$' })?.kind).toBe(
      'pattern',
    );
    expect(formatNegative({ type: 'string', format: 'uuid', pattern: '^.+$' })?.kind).toBe(
      'format',
    );
  });
});

describe('verdicts on them', () => {
  let server: FormatServer;
  let live: CliRun;
  let mock: CliRun;
  beforeAll(async () => {
    server = await startFormatServer();
    [live, mock] = await Promise.all([
      runCli('contract', ['--spec', SPEC, '--base-url', server.url, '--allow-writes'], 'fmt-live'),
      runCli('contract', ['--spec', SPEC], 'fmt-mock'),
    ]);
  }, 300_000);
  afterAll(() => server?.close());

  const warnings = (r: CliRun) => r.result!.warnings.map((w) => `${w.code} ${w.pointer}`);

  it('against a server: an accepted null body and a 5xx on a bad date-time fail', () => {
    expect(failedOf(live).sort(), live.stdout.slice(-3000)).toEqual([
      'listEvents negative main',
      'listEvents server-errors main',
      'listEvents status main',
      'postAlerts negative main',
    ]);
    // The null body alone: the missing body is refused.
    expect(find(live, 'postAlerts', 'negative')!.message).not.toContain('missing');
    expect(find(live, 'postAlerts', 'negative')!.message).toContain('body=null (not an array)');
    expect(find(live, 'listEvents', 'negative')!.message).toContain('not format date-time');
    expect(live.code).toBe(1);
  });

  it('a format taken as valid is a warning; refused with 422 it is the undeclared status only', () => {
    const w = warnings(live);
    expect(w).toContain('format-not-asserted /paths/~1silences~1{silenceId}/get');
    expect(w).toContain('undeclared-status /paths/~1silences~1{silenceId}/delete/responses');
    expect(
      w.some((x) => x.includes('format-not-asserted /paths/~1silences~1{silenceId}/delete')),
    ).toBe(false);
    expect(find(live, 'getSilence', 'negative')!.status).toBe('passed');
    expect(find(live, 'deleteSilence', 'negative')!.status).toBe('passed');
  });

  it('the embedded mock refuses every case: no failure, no format warning', () => {
    expect(failedOf(mock), mock.stdout.slice(-3000)).toEqual([]);
    expect(warnings(mock).filter((w) => w.startsWith('format-not-asserted'))).toEqual([]);
    expect(find(mock, 'getSilence', 'negative')!.status).toBe('passed');
    expect(mock.code).toBe(0);
  });
});
