/** The sampler's rules, one schema feature at a time; every draw is also checked by Ajv. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from 'dataapi/model';
import { arbitraryOf, draw, sample } from 'dataapi/runtime/sampler';
import { validatorFor } from 'dataapi/runtime/shared';
import { ref, tinyModel } from './helpers.ts';

const model = tinyModel({
  Sid: { type: 'string', pattern: '^VA[0-9a-fA-F]{32}$', minLength: 34, maxLength: 34 },
  Snowflake: { type: 'string', pattern: '^(0|[1-9][0-9]{0,18})$' },
  Base: {
    type: 'object',
    required: ['id', 'permissions'],
    properties: {
      id: { type: 'string', readOnly: true },
      permissions: {
        type: 'object',
        required: ['can_upload'],
        properties: { can_upload: { type: 'boolean' } },
      },
    },
  },
  Full: {
    allOf: [
      ref('Base'),
      { properties: { secret: { type: 'string', writeOnly: true }, name: { type: 'string' } } },
    ],
  },
  Cat: {
    type: 'object',
    required: ['kind', 'lives'],
    properties: { kind: { type: 'string' }, lives: { type: 'integer', minimum: 1, maximum: 9 } },
  },
  Dog: {
    type: 'object',
    required: ['kind', 'bark'],
    properties: { kind: { type: 'string' }, bark: { type: 'boolean' } },
  },
  Pet: {
    oneOf: [ref('Cat'), ref('Dog')],
    discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
  },
  Tree: {
    type: 'object',
    required: ['children'],
    properties: { children: { type: 'array', items: ref('Tree') }, label: { type: 'string' } },
  },
});

const valid = (schema: JsonSchema, value: unknown) => {
  const v = validatorFor(model).compile(schema);
  return v(value) ? [] : v.errors;
};

describe('sampler', () => {
  it('honours pattern with length bounds (Twilio SIDs, Discord snowflakes)', () => {
    for (const name of ['Sid', 'Snowflake'])
      for (let seed = 1; seed < 20; seed++) {
        const d = draw(model, ref(name), { seed });
        expect(d.valid, `${name} seed ${seed}: ${d.errors.join('; ')}`).toBe(true);
      }
    expect(draw(model, ref('Sid')).value).toMatch(/^VA[0-9a-fA-F]{32}$/);
  });

  it('merges allOf without losing the real parts', () => {
    const d = draw(model, ref('Full'));
    expect(d.errors).toEqual([]);
    expect((d.value as { permissions: { can_upload: unknown } }).permissions.can_upload).toBeTypeOf(
      'boolean',
    );
  });

  it('leaves readOnly out of requests and writeOnly out of responses', () => {
    const request = draw(model, ref('Full'), { direction: 'request' });
    const response = draw(model, ref('Full'), { direction: 'response' });
    expect(request.valid).toBe(true);
    expect(request.value).not.toHaveProperty('id');
    expect(request.value).toHaveProperty('secret');
    expect(response.value).toHaveProperty('id');
    expect(response.value).not.toHaveProperty('secret');
  });

  it('picks one oneOf option and sets its discriminator value', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed < 30; seed++) {
      const d = draw(model, ref('Pet'), { seed, preferExamples: false });
      expect(d.valid, d.errors.join('; ')).toBe(true);
      seen.add((d.value as { kind: string }).kind);
    }
    expect([...seen].sort()).toEqual(['Dog', 'cat']);
  });

  it('keeps int64 bounds inside the safe integers (no float overflow)', () => {
    const int64 = { type: 'integer', format: 'int64', minimum: 9223372036854775000 - 1e18 };
    const big = { type: 'integer', maximum: 9223372036854775807, minimum: 9007199254740000 };
    for (const schema of [int64, big, { type: 'integer', maximum: -9223372036854775808 }]) {
      const value = draw(model, schema, { preferExamples: false }).value as number;
      // Beyond the safe range only the bound itself is exact: no rounding past it.
      if (schema === big) expect(Number.isSafeInteger(value)).toBe(true);
      expect(valid(schema, value)).toEqual([]);
    }
  });

  it('honours const, enum, nullability, lengths, item counts and uniqueness', () => {
    const schemas: JsonSchema[] = [
      { const: 'fixed' },
      { enum: ['a', 'b'], type: 'string' },
      { type: ['string', 'null'], minLength: 5, maxLength: 5 },
      {
        type: 'array',
        items: { type: 'integer', minimum: 0, maximum: 3 },
        minItems: 3,
        maxItems: 3,
        uniqueItems: true,
      },
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'uuid' },
      { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.01 },
      { type: 'number', multipleOf: 0.25, minimum: 1, maximum: 2 },
      { type: 'object', minProperties: 2, additionalProperties: { type: 'integer' } },
    ];
    for (const schema of schemas)
      for (let seed = 1; seed < 10; seed++) {
        const d = draw(model, schema, { seed, preferExamples: false, optional: 'random' });
        expect(d.valid, `${JSON.stringify(schema)}: ${d.errors.join('; ')}`).toBe(true);
      }
    expect(draw(model, { const: 'fixed' }).value).toBe('fixed');
  });

  it('ends recursive schemas', () => {
    const d = draw(model, ref('Tree'));
    expect(d.valid).toBe(true);
    expect(JSON.stringify(d.value).length).toBeLessThan(10_000);
  });

  it('is deterministic: the same seed gives the same value, another seed may not', () => {
    const a = JSON.stringify(sample(model, ref('Full'), { dynamic: true, seed: 7 }));
    expect(JSON.stringify(sample(model, ref('Full'), { dynamic: true, seed: 7 }))).toBe(a);
    const many = new Set(
      Array.from({ length: 10 }, (_, i) =>
        JSON.stringify(sample(model, ref('Cat'), { dynamic: true, seed: i })),
      ),
    );
    expect(many.size).toBeGreaterThan(1);
  });

  it('gives fast-check arbitraries whose values validate (for property-based use)', () => {
    const check = validatorFor(model).compile(ref('Pet'));
    fc.assert(
      fc.property(
        arbitraryOf(model, ref('Pet'), { preferExamples: false, optional: 'random' }),
        (v) => check(v),
      ),
      { seed: 42, numRuns: 100 },
    );
  });

  it('says when no value satisfies a schema (contradictory allOf)', () => {
    const d = draw(model, { allOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(d.valid).toBe(false);
    expect(d.errors[0]).toMatch(/disagree on type/);
  });
});
