/**
 * A `oneOf` of objects told apart by a `const`/`enum` property, no discriminator (issue 26,
 * class 8): every draw of the suite's sampler satisfies the schema on its own (no retry, no
 * pruning), because each option takes a tag value no other option admits, and an option whose
 * every tag value another takes too is left aside.
 */
import path from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { arbitraryOf, sample } from 'dataapi/runtime/sampler';
import { validatorFor } from 'dataapi/runtime/shared';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

it('draws values that match exactly one option, for every seed', async () => {
  const model = normalise(await loadSpec(path.join(FIXTURES, 'formats/one-of-const.yaml')));
  const schema = model.operations[0]!.body!.schema;
  const validate = validatorFor(model).compile(schema);
  const arb = arbitraryOf(model, schema, { preferExamples: false });
  const invalid: unknown[] = [];
  const kinds = new Set<unknown>();
  for (let seed = 1; seed <= 200; seed++) {
    const value = fc.sample(arb, { seed, numRuns: 1 })[0];
    if (!validate(value)) invalid.push(value);
    kinds.add((value as { kind?: unknown }).kind);
  }
  expect(invalid.slice(0, 3)).toEqual([]);
  // Every option that can be told apart is drawn, each with its own tag.
  expect([...kinds].sort()).toEqual(['click', 'key', 'scroll', 'tap']);
  expect(validate(sample(model, schema, { seed: 5 }))).toBe(true);
});
