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
    // A root naming another meta-schema is checked by Ajv itself (spied on here); the 2020-12
    // one by the kept validator (meta-schema.test.ts).
    const root = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'urn:x',
      definitions: {},
    };
    const model = { schemaRoot: root } as unknown as ServiceModel;
    const spy = vi.spyOn(Ajv2020.prototype, 'validateSchema');
    for (const options of [{}, { coerceTypes: 'array' as const }, {}])
      expect(() => createSchemaValidator(model, options)).toThrow(/no schema with key or ref/);
    expect(spy.mock.calls.filter(([s]) => s === root)).toHaveLength(3); // refused: never recorded
    spy.mockClear();
    const ok = modelOf({ thing: wide });
    createSchemaValidator(ok);
    createSchemaValidator(ok, { coerceTypes: 'array' });
    expect(spy).not.toHaveBeenCalled(); // no Ajv compiled the 2020-12 meta-schema
  });

  it("checks every instance's schemas with one validator of the process, which coerces nothing", () => {
    const model = modelOf({ thing: wide });
    const spy = vi.spyOn(Ajv2020.prototype, 'validateSchema');
    const strict = createSchemaValidator(model);
    const coercing = createSchemaValidator(model, { coerceTypes: 'array' });
    strict.compile({ type: 'string', minLength: 2 });
    coercing.compile({ type: 'integer', maximum: 9 });
    expect(spy).not.toHaveBeenCalled(); // the kept meta-schema validator, not an Ajv's own
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
