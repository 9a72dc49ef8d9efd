import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { createSchemaValidator, describeErrors } from '../../model/validate.ts';

const modelOf = (defs: Record<string, unknown>) =>
  ({ schemaRoot: { $id: 'urn:dataapi:spec', $defs: defs } }) as unknown as ServiceModel;

// A schema of more than 16 keywords: compiled as a function of its own, not inlined.
const wide = {
  type: 'object',
  required: ['name'],
  properties: Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'string', minLength: 1 }]),
  ),
};

describe('createSchemaValidator', () => {
  afterEach(() => vi.restoreAllMocks());

  it('checks a schema root against the meta-schema once per process, however many instances', () => {
    const model = modelOf({ thing: wide });
    const spy = vi.spyOn(Ajv2020.prototype, 'validateSchema');
    createSchemaValidator(model);
    createSchemaValidator(model, { coerceTypes: 'array' });
    createSchemaValidator(model);
    expect(spy.mock.calls.filter(([s]) => s === model.schemaRoot)).toHaveLength(1);
  });

  it("checks every instance's schemas with one Ajv of the process, which coerces nothing", () => {
    const model = modelOf({ thing: wide });
    const spy = vi.spyOn(Ajv2020.prototype, 'validateSchema');
    const strict = createSchemaValidator(model);
    const coercing = createSchemaValidator(model, { coerceTypes: 'array' });
    strict.compile({ type: 'string', minLength: 2 });
    coercing.compile({ type: 'integer', maximum: 9 });
    const checkers = new Set(spy.mock.contexts);
    expect(checkers.size).toBe(1); // one meta-schema compiled, not one per instance
    expect(checkers.has(strict.ajv) || checkers.has(coercing.ajv)).toBe(false);
    // A coercing instance refuses an invalid schema as the strict one does, and leaves it as it
    // was (its own meta-schema check used to coerce "3" to 3 in the model, and accept it).
    const bad = { type: 'integer', minimum: '3' };
    expect(() => coercing.compile(bad)).toThrow(/schema is invalid: data\/minimum must be number/);
    expect(bad.minimum).toBe('3');
  });

  it('refuses an invalid root in every instance (a refused root is never recorded as checked)', () => {
    const model = modelOf({ thing: { type: 'object', minProperties: 'two' } });
    expect(() => createSchemaValidator(model)).toThrow(/schema is invalid/);
    expect(() => createSchemaValidator(model)).toThrow(/schema is invalid/);
  });

  it('finds errors inside a referenced schema compiled on its own, at their place', () => {
    const model = modelOf({ thing: wide });
    const validate = createSchemaValidator(model).compile({
      type: 'object',
      properties: { a: { $ref: 'urn:dataapi:spec#/$defs/thing' } },
    });
    const body = { a: { p3: '', p4: 5 } };
    expect(validate(body)).toBe(false);
    expect(describeErrors(validate.errors, body)).toEqual([
      '/a must have required property \'name\' (got {"p3":"","p4":5})',
      '/a/p3 must NOT have fewer than 1 characters (got "")',
      '/a/p4 must be string (got 5)',
    ]);
  });

  it('compiles equal schemas once, however many objects carry them, and tells different ones apart', () => {
    const v = createSchemaValidator(modelOf({ thing: wide }));
    const spy = vi.spyOn(v.ajv, 'compile');
    // Each operation's `{ $ref }` is an object of its own once the model is read from JSON.
    const first = v.compile({ $ref: 'urn:dataapi:spec#/$defs/thing' });
    const again = v.compile({ $ref: 'urn:dataapi:spec#/$defs/thing' });
    expect(again).toBe(first);
    const other = v.compile({ $ref: 'urn:dataapi:spec#/$defs/thing', minProperties: 2 });
    expect(other).not.toBe(first);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(first({ name: 'x' })).toBe(true);
    expect(other({ name: 'x' })).toBe(false);
  });
});
