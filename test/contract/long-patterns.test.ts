/**
 * A path value whose pattern needs more characters than the sampler's usual length (AWS ARNs;
 * corpus amazonaws.com/resource-groups and medical-imaging): the suite's valid request carries
 * a value of the pattern, and its own mock accepts it, fuzz included. An answer of many patterned
 * fields with a loose minLength is valid too: a word drawn for the length's sake spoiled it, and
 * the suite blamed the description (`unsatisfiable-schema`) for what the sampler did.
 */
import { expect, it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('long patterned path values: the valid request passes, no failure, no toolkit fault', async () => {
  const run = await cleanOnOwnMock('test/fixtures/generality/long-patterns.yaml', 'long-pat', [
    '--fuzz',
    '3',
    '--seed',
    '5',
  ]);
  const warned = run.result!.warnings.map((w) => `${w.code} ${w.operation ?? ''}`);
  expect(warned).not.toContain('unsatisfiable-schema getTags');
  for (const op of ['getTags', 'listTagsForResource'])
    expect(
      run.result!.results.find((r) => r.operation === op && r.check === 'status')?.status,
      op,
    ).toBe('passed');
});
