/**
 * Normalise: 3.0 and 3.1 input give one 3.1-shaped model; both preview spellings give one model;
 * envelopes from the extension or the 200 schema; extension misuse is a located SpecError; odd
 * but valid descriptions get safe, unique names.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, SpecError } from '../../generator/load.ts';
import { allParameters, type Operation, type Parameter, type ServiceModel } from 'dataapi/model';
import { normalise } from '../../generator/normalise/index.ts';
import { toFileStem } from '../../model/identifiers.ts';
import { createSchemaValidator } from '../../runtime/shared/index.ts';
import { FIXTURES } from './helpers.ts';

const load = async (rel: string) => normalise(await loadSpec(path.join(FIXTURES, rel)));
const op = (model: ServiceModel, id: string): Operation => {
  const found = model.operations.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id} in ${model.operations.map((o) => o.id).join()}`);
  return found;
};
const def = (model: ServiceModel, name: string) =>
  (model.schemaRoot['$defs'] as Record<string, Record<string, unknown>>)[name];
const ref = (name: string) => `urn:dataapi:spec#/$defs/${name}`;

describe('3.0 input normalises to the 3.1-shaped model', () => {
  let m30: ServiceModel;
  let m31: ServiceModel;
  beforeAll(async () => {
    [m30, m31] = await Promise.all([
      load('generator-norm/twins-30.yaml'),
      load('generator-norm/twins-31.yaml'),
    ]);
  });

  it('a 3.0 and a 3.1 version of the same API give equal operation models and schemas', () => {
    expect(m30.openapi).toBe('3.0.3');
    expect(m31.openapi).toBe('3.1.0');
    expect(m30.operations.length).toBe(2);
    expect(m30.operations).toEqual(m31.operations);
    expect(m30.schemaRoot).toEqual(m31.schemaRoot);
    expect(m30.categories).toEqual(m31.categories);
  });

  it('nullable with a type, with an enum and with allOf; boolean exclusive bounds; example', () => {
    const [kind, limit] = op(m30, 'listPets').parameters.query;
    expect(kind?.schema).toEqual({ type: ['string', 'null'], enum: ['cat', 'dog', null] });
    expect(limit?.schema).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
      exclusiveMaximum: 100,
      examples: [10],
    });
    const pet = def(m30, 'Pet')?.['properties'] as Record<string, unknown>;
    expect(pet['name']).toEqual({ type: ['string', 'null'] });
    expect(pet['weight']).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(pet['owner']).toEqual({ anyOf: [{ $ref: ref('Owner') }, { type: 'null' }] });
  });

  it('3.0: the siblings of $ref are ignored (nullable and description included)', () => {
    const pet = def(m30, 'Pet')?.['properties'] as Record<string, unknown>;
    expect(pet['friend']).toEqual({ $ref: ref('Pet') });
  });

  it('path-level parameters reach the operation; recursive schemas compile and validate', () => {
    expect(
      allParameters(op(m30, 'getPet').parameters).map((p) => [p.in, p.name, p.required]),
    ).toEqual([['path', 'petId', true]]);
    const validate = createSchemaValidator(m30).compile(op(m30, 'getPet').success!.schema!);
    const pet = {
      id: 1,
      name: null,
      parent: { id: 2, name: 'p', owner: { pets: [{ id: 3, name: 'q' }] } },
    };
    expect(validate(pet), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ id: 1, name: 'x', parent: { id: 'two', name: 'p' } })).toBe(false);
    expect(validate({ id: 1, name: 'x', weight: 0 })).toBe(false); // exclusive minimum
  });
});

describe('3.1 schemas', () => {
  let m: ServiceModel;
  beforeAll(async () => {
    m = await load('generator-norm/schemas-31.yaml');
  });

  it('keeps type arrays and the siblings of $ref', () => {
    const thing = def(m, 'Thing')?.['properties'] as Record<string, unknown>;
    expect(thing['id']).toEqual({ type: ['string', 'integer'] });
    expect(thing['label']).toEqual({ type: ['string', 'null'] });
    expect(op(m, 'createThing').success?.schema).toEqual({
      description: 'kept in 3.1',
      required: ['id'],
      $ref: ref('Thing'),
    });
  });

  it('recursive schemas (items and oneOf) compile and validate; sibling `required` applies', () => {
    const validate = createSchemaValidator(m).compile(op(m, 'createThing').success!.schema!);
    expect(validate({ id: 1, children: [{ id: 'a', next: { id: 2, next: null } }] })).toBe(true);
    expect(validate({ children: [] })).toBe(false); // required from the $ref's sibling
    expect(validate({ id: 1, children: [{ id: true }] })).toBe(false);
  });
});

describe('preview variants', () => {
  it('the explicit /demo operation and the extension alone give the same model', async () => {
    const [explicit, marked] = await Promise.all([
      load('generator-norm/preview-explicit.yaml'),
      load('generator-norm/preview-marked.yaml'),
    ]);
    expect(explicit.operations.map((o) => o.path)).toEqual(['/weather/air']);
    const a = op(explicit, 'getAir');
    const b = op(marked, 'getAir');
    expect(a.preview).toEqual({
      path: '/weather/air/demo',
      id: 'getAirPreview',
      explicit: true,
      operationId: 'getAirDemo',
    });
    expect(b.preview).toEqual({ path: '/weather/air/demo', id: 'getAirPreview', explicit: false });
    const strip = (m: ServiceModel) =>
      structuredClone(m.operations).map((o) => {
        delete o.preview?.operationId;
        if (o.preview) o.preview.explicit = false;
        return o;
      });
    expect(strip(explicit)).toEqual(strip(marked));
    expect(explicit.categories).toEqual(marked.categories);
    expect(explicit.schemaRoot).toEqual(marked.schemaRoot);
  });
});

describe('envelopes', () => {
  let m: ServiceModel;
  beforeAll(async () => {
    m = await load('generator-norm/envelope.yaml');
  });

  it('from the extension and inferred from the 200 schema give the same envelope', () => {
    const declared = op(m, 'declared');
    const inferred = op(m, 'inferred');
    expect(declared.envelope?.source).toBe('extension');
    expect(inferred.envelope?.source).toBe('inferred');
    expect({ ...declared.envelope, source: 'x' }).toEqual({ ...inferred.envelope, source: 'x' });
    expect(declared.envelope).toMatchObject({
      spelling: 'capitalised',
      statusKey: 'DataStatus',
      payloadKey: 'Data',
      codeField: 'StatusCode',
      statusFields: ['StatusCode', 'StatusDescription', 'ResponseDateTime', 'DataTotalCount'],
      toleratedKeys: [],
    });
    expect(declared.payloadSchema).toEqual({ type: 'array', items: { type: 'string' } });
    expect(inferred.payloadSchema).toEqual(declared.payloadSchema);
  });

  it('infers lower camel case through allOf, tolerating the capitalised DataStatus', () => {
    expect(op(m, 'lower').envelope).toMatchObject({
      spelling: 'lowerCamel',
      statusKey: 'dataStatus',
      payloadKey: 'data',
      codeField: 'statusCode',
      toleratedKeys: ['DataStatus'],
      source: 'inferred',
    });
  });

  it('an operation with neither is plain JSON, as is one declared `none`', () => {
    for (const id of ['plain', 'declaredNone']) {
      const o = op(m, id);
      expect(o.envelope).toBeUndefined();
      expect(o.payloadSchema).toBeUndefined();
      expect(o.success?.kind).toBe('json');
    }
  });
});

describe('extension misuse', () => {
  it('is one SpecError listing every problem with its pointer and line', async () => {
    const err = (await load('generator-norm/misuse.yaml').catch((e: unknown) => e)) as SpecError;
    expect(err).toBeInstanceOf(SpecError);
    expect(err.code).toBe('DATAAPI_SPEC_EXTENSION');
    const byPointer = Object.fromEntries(err.problems.map((p) => [p.pointer, p]));
    expect(byPointer['/paths/~1a/get/x-dataapi-business-codes']).toMatchObject({
      line: 14,
      message: expect.stringMatching(/unknown business code group "Z" \(declared: A\)/),
    });
    expect(byPointer['/paths/~1b/get/x-dataapi-rate-limit']).toMatchObject({
      line: 19,
      message: expect.stringMatching(/limit: <positive integer>, per: second \| minute \| hour/),
    });
    expect(byPointer['/paths/~1c/get/x-dataapi-envelope']).toMatchObject({
      line: 24,
      message: expect.stringMatching(/capitalised, lowerCamel, none/),
    });
    expect(byPointer['/paths/~1c~1demo/get/x-dataapi-preview-of']).toMatchObject({
      line: 29,
      message: expect.stringMatching(/no operation has operationId "noSuchOperation"/),
    });
    expect(err.problems).toHaveLength(4);
    expect(err.message).toContain('misuse.yaml:14:');
  });
});

describe('odd but valid descriptions', () => {
  let m: ServiceModel;
  beforeAll(async () => {
    m = await load('generator-odd.yaml');
  });

  it('gives every operation a unique safe id; exact operationIds keep theirs', () => {
    const ids = m.operations.map((o) => [o.operationId ?? null, o.id]);
    expect(ids).toEqual(
      expect.arrayContaining([
        ['updateItem', 'updateItem'], // exact: wins over the sanitised clashes below
        ['update item', 'updateItem2'],
        ['update-item', 'updateItem3'],
        ['123 new', '_123New'],
        ['delete', 'delete_'],
        ['class', 'class_'],
        [null, 'getItemsByItemId'],
        [null, 'headItemsByItemId'],
      ]),
    );
    const all = m.operations.map((o) => o.id.toLowerCase());
    expect(new Set(all).size).toBe(all.length);
    for (const o of m.operations) expect(o.id).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
  });

  it('file stems stay distinct, short and inside the folder even for long ids', () => {
    const stems = m.operations.map((o) => toFileStem(o.id));
    expect(new Set(stems).size).toBe(stems.length);
    for (const s of stems) expect(s).toMatch(/^[a-z0-9-]{1,80}$/);
    expect(toFileStem('../../evil')).toBe('evil');
    expect(toFileStem('/etc/x')).toBe('etc-x');
    expect(toFileStem('con')).not.toBe('con');
  });

  it('parameters: path-level ones merged and overridden, content instead of schema, unique identifiers', () => {
    const get = op(m, 'getItemsByItemId');
    const row = (p: Parameter) => [p.in, p.name, p.identifier, p.required];
    // Grouped by location, each parameter's `in` its group's.
    expect({
      path: get.parameters.path.map(row),
      query: get.parameters.query.map(row),
      header: get.parameters.header.map(row),
      cookie: get.parameters.cookie.map(row),
    }).toEqual({
      path: [['path', 'item-id', 'itemId', true]],
      query: [
        ['query', 'filter', 'filter', false],
        ['query', 'item_id', 'itemId2', false],
      ],
      header: [['header', 'x-trace', 'xTrace', true]], // overrides the path-level X-Trace (any case)
      cookie: [['cookie', 'itemId', 'itemId3', false]],
    });
    expect(Object.keys(get.parameters)).toEqual(['path', 'query', 'header', 'cookie']);
    expect(allParameters(get.parameters).map((p) => p.identifier)).toEqual([
      'itemId',
      'filter',
      'itemId2',
      'xTrace',
      'itemId3',
    ]);
    const filter = get.parameters.query.find((p) => p.name === 'filter');
    expect(filter?.mediaType).toBe('application/json');
    expect(filter?.schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(op(m, 'updateItem2').parameters.header.find((p) => p.name === 'X-Trace')?.required).toBe(
      false,
    );
    expect(allParameters(op(m, 'class_').parameters).map((p) => p.identifier)).toEqual([
      'constructor_',
      'proto',
    ]);
  });

  it('responses without content, only a default, text and binary bodies', () => {
    expect(op(m, 'getItemsByItemId').success).toMatchObject({ status: '204', kind: 'empty' });
    expect(op(m, 'updateItem2').success).toMatchObject({ status: '200', kind: 'empty' });
    expect(op(m, 'updateItem3').success).toBeUndefined();
    expect(op(m, 'updateItem3').responses.map((r) => r.status)).toEqual(['default']);
    expect(op(m, 'updateItem').success).toMatchObject({ kind: 'text', mediaType: 'text/plain' });
    expect(op(m, 'updateItem').responses.map((r) => [r.status, r.kind])).toEqual([
      ['200', 'text'],
      ['4XX', 'json'],
    ]);
    expect(op(m, '_123New').body).toMatchObject({ kind: 'binary', required: true });
    expect(op(m, 'updateItem2').body).toMatchObject({ kind: 'form' });
    for (const o of m.operations) expect(o.envelope).toBeUndefined();
  });
});

describe('discriminators', () => {
  // @readme/oas-examples discriminators.json: two options that differ only by the value of the
  // discriminating property; as plain JSON Schema every value matches both and oneOf refuses it.
  const doc = {
    openapi: '3.0.3',
    info: { title: 'd', version: '1' },
    paths: {
      '/pets': {
        patch: {
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { $ref: '#/components/schemas/One' },
                    { $ref: '#/components/schemas/Two' },
                  ],
                  discriminator: {
                    propertyName: 'kind',
                    mapping: { 'Option One': '#/components/schemas/One' },
                  },
                },
              },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
      // The discriminator on a base every option inherits through allOf.
      '/animals': {
        patch: {
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { $ref: '#/components/schemas/Cat' },
                    { $ref: '#/components/schemas/Dog' },
                  ],
                },
              },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: {
      schemas: {
        Pet: {
          type: 'object',
          required: ['pet_type'],
          properties: { pet_type: { type: 'string' } },
          discriminator: { propertyName: 'pet_type' },
        },
        Cat: { allOf: [{ $ref: '#/components/schemas/Pet' }, { properties: { hunts: {} } }] },
        Dog: { allOf: [{ $ref: '#/components/schemas/Pet' }, { properties: { bark: {} } }] },
        One: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { type: 'string' }, one: { type: 'number' } },
        },
        Two: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { type: 'string' }, two: { type: 'string' } },
        },
      },
    },
  };

  it('each option takes only the values that name it (mapping keys, its component name)', () => {
    const model = normalise({ file: 'inline.json', locate: () => undefined, document: doc });
    const body = model.operations.find((o) => o.path === '/pets')!.body!.schema;
    const check = createSchemaValidator(model).compile(body);
    expect(check({ kind: 'Option One', one: 1 }), JSON.stringify(check.errors)).toBe(true);
    expect(check({ kind: 'One', one: 1 })).toBe(true);
    expect(check({ kind: 'Two', two: 'x' })).toBe(true);
    expect(check({ kind: 'Three' })).toBe(false);
    expect(check({ kind: 'Two', two: 5 })).toBe(false);
    const animals = model.operations.find((o) => o.path === '/animals')!.body!.schema;
    const checkAnimal = createSchemaValidator(model).compile(animals);
    expect(checkAnimal({ pet_type: 'Cat', hunts: true })).toBe(true);
    expect(checkAnimal({ pet_type: 'Dog' })).toBe(true);
    expect(checkAnimal({ pet_type: 'Cow' })).toBe(false);
  });
});
