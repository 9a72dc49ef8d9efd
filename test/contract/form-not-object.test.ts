/**
 * A form or multipart body whose schema is not an object (corpus noosh.com): no request could
 * match `type: string` as a set of fields, so the mock refused every upload and the suite's valid
 * request failed. The model reads it as fields of any name, with a `body-form-not-object` finding.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { ROOT } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

const SPEC = path.join(ROOT, 'test/fixtures/generality/form-not-object.yaml');

it('reads a multipart body of type string as fields of any name, with a finding', async () => {
  const model = normalise(await loadSpec(SPEC));
  expect(model.operations[0]!.body!.schema).toEqual({ type: 'object' });
  expect(model.findings.map((f) => f.code)).toContain('body-form-not-object');
});

it('passes its own suite against the mock', async () => {
  await cleanOnOwnMock(SPEC, 'form-not-object', ['--allow-writes']);
});
