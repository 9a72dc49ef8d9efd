/**
 * A 204 (205, 304, 1xx) that declares content (corpus journy.io): HTTP forbids the body, so the
 * model reads it as none, with a `response-content-forbidden` finding, and a target that sends no
 * body and no content type passes.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { ROOT } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

const SPEC = path.join(ROOT, 'test/fixtures/generality/no-content-204.yaml');

it('reads a 204 with declared content as no body, with a finding', async () => {
  const model = normalise(await loadSpec(SPEC));
  const r = model.operations[0]!.responses.find((x) => x.status === '204')!;
  expect(r).toMatchObject({ kind: 'empty' });
  expect(r.mediaType).toBeUndefined();
  expect(model.findings.map((f) => `${f.code} ${f.pointer}`)).toContain(
    'response-content-forbidden /paths/~1users~1remove/post/responses/204/content',
  );
});

it('passes a target that answers 204 without a body', async () => {
  await cleanOnOwnMock(SPEC, 'no-content-204');
});
