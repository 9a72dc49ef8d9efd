/**
 * `maxProperties` on an object with more optional properties than it allows (CAMARA's
 * DeviceResponse: a Device, allOf `maxProperties: 1`). The sampler filled every optional
 * property, so the mock's answers broke their own schema ("must NOT have more than 1
 * properties"). It now fills optional properties only while there is room; seeded draws, fixed
 * and dynamic, are valid, and the suite passes against the mock.
 */
import { describe, expect, it } from 'vitest';
import { validatorFor } from 'dataapi/runtime/shared';
import { draw } from 'dataapi/runtime/sampler';
import { expectPassed, fixture, modelOf, ownSuite } from './helpers.ts';

describe('an object with maxProperties below its optional properties', () => {
  it('is sampled within the bound, seeded, fixed and dynamic', async () => {
    const model = await modelOf('max-properties.yaml');
    const schema = model.operations[0]!.success!.schema!;
    const validate = validatorFor(model).compile(schema);
    for (let seed = 1; seed <= 20; seed++)
      for (const optional of ['all', 'random'] as const) {
        const got = draw(model, schema, { seed, optional, attempts: 1 });
        expect(validate(got.value), `${seed} ${optional}: ${JSON.stringify(got.value)}`).toBe(true);
      }
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('max-properties.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
