/**
 * A parameter whose schema admits no value (corpus trakt.tv: `type: integer` with an enum of
 * strings): the request built from it is refused by any conforming target, so the refusal is a
 * description warning (`unsatisfiable-schema`, naming the parameter), never the target's failure.
 */
import { expect, it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('puts the refusal of an unsatisfiable parameter on the description', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/unsatisfiable-parameter.yaml',
    'unsatisfiable-parameter',
  );
  const warned = (run.result!.warnings ?? []).filter((w) => w.code === 'unsatisfiable-schema');
  expect(warned.map((w) => w.message).join('\n'), tail).toMatch(/path parameter rating/);
});
