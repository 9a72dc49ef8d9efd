/**
 * The fixture matrix: one BASE (test/fixtures/diff/base.yaml) and one HEAD per change, each
 * loaded through the real loader from a file, each classified with the expected rule id,
 * operation and JSON pointer (and so severity, from the rules table).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSpecs, RULES, type Change } from '../../generator/diff/index.ts';
import { BASE, headFile, ptr, scratch, type Doc } from './helpers.ts';

const dir = scratch('matrix');
afterAll(() => undefined);

const pets = ptr('paths', '/pets', 'get');
const create = ptr('paths', '/pets', 'post');
const pet = ptr('paths', '/pets/{petId}', 'get');
const del = ptr('paths', '/pets/{petId}', 'delete');
const ip = ptr('paths', '/ip', 'get');
const petSchema = '/components/schemas/Pet';
const newPet = '/components/schemas/NewPet';
const petOps = ['listPets', 'createPet', 'getPet'];

type Expected = [rule: keyof typeof RULES, operation: string, pointer: string];
interface Case {
  name: string;
  mutate: (d: Doc) => void;
  expect: Expected[];
}

const each = (ops: string[], rule: keyof typeof RULES, pointer: string): Expected[] =>
  ops.map((op) => [rule, op, pointer]);

const cases: Case[] = [
  {
    name: 'operation removed',
    mutate: (d) => delete d.paths['/pets/{petId}'].delete,
    expect: [['api-operation-removed', 'deletePet', del]],
  },
  {
    name: 'operation added',
    mutate: (d) =>
      (d.paths['/pets/{petId}'].put = {
        operationId: 'updatePet',
        responses: { '204': { description: 'Updated' } },
      }),
    expect: [['api-operation-added', 'updatePet', ptr('paths', '/pets/{petId}', 'put')]],
  },
  {
    name: 'operationId renamed',
    mutate: (d) => (d.paths['/pets/{petId}'].get.operationId = 'fetchPet'),
    expect: [['api-operation-id-changed', 'fetchPet', `${pet}/operationId`]],
  },
  {
    name: 'preview variant removed',
    mutate: (d) => {
      delete d.paths['/pets/demo'];
      d.paths['/pets'].get['x-dataapi-preview'] = false;
    },
    expect: [['api-preview-removed', 'listPets', ptr('paths', '/pets/demo', 'get')]],
  },
  {
    name: 'error status removed',
    mutate: (d) => delete d.paths['/pets'].get.responses['429'],
    expect: [['response-status-removed', 'listPets', `${pets}/responses/429`]],
  },
  {
    name: 'success status replaced',
    mutate: (d) => {
      const r = d.paths['/pets/{petId}'].get.responses;
      r['201'] = r['200'];
      delete r['200'];
    },
    expect: [
      ['response-success-status-removed', 'getPet', `${pet}/responses/200`],
      ['response-status-added', 'getPet', `${pet}/responses/201`],
    ],
  },
  {
    name: 'required parameter added',
    mutate: (d) =>
      d.paths['/pets'].get.parameters.push({
        name: 'owner',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    expect: [['request-parameter-added-required', 'listPets', `${pets}/parameters/3`]],
  },
  {
    name: 'optional parameter added',
    mutate: (d) =>
      d.paths['/pets'].get.parameters.push({
        name: 'owner',
        in: 'query',
        schema: { type: 'string' },
      }),
    expect: [['request-parameter-added', 'listPets', `${pets}/parameters/3`]],
  },
  {
    name: 'optional parameter made required',
    mutate: (d) => (d.paths['/pets'].get.parameters[0].required = true),
    expect: [['request-parameter-became-required', 'listPets', `${pets}/parameters/0/required`]],
  },
  {
    name: 'parameter removed',
    mutate: (d) => d.paths['/pets'].get.parameters.pop(),
    expect: [['request-parameter-removed', 'listPets', `${pets}/parameters/2`]],
  },
  {
    name: 'request maximum lowered',
    mutate: (d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 50),
    expect: [['request-bounds-narrowed', 'listPets', `${pets}/parameters/0/schema/maximum`]],
  },
  {
    name: 'request maximum raised',
    mutate: (d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 200),
    expect: [['request-bounds-widened', 'listPets', `${pets}/parameters/0/schema/maximum`]],
  },
  {
    name: 'request type narrowed',
    mutate: (d) => (d.paths['/ip'].get.parameters[0].schema.type = 'integer'),
    expect: [['request-type-narrowed', 'getIpLocation', `${ip}/parameters/0/schema/type`]],
  },
  {
    name: 'request enum narrowed',
    mutate: (d) => (d.paths['/ip'].get.parameters[1].schema.enum = ['en']),
    expect: [['request-enum-value-removed', 'getIpLocation', `${ip}/parameters/1/schema/enum`]],
  },
  {
    name: 'request enum widened',
    mutate: (d) => d.paths['/ip'].get.parameters[1].schema.enum.push('fr'),
    expect: [['request-enum-value-added', 'getIpLocation', `${ip}/parameters/1/schema/enum`]],
  },
  {
    name: 'request pattern tightened (path-level parameter, two operations)',
    mutate: (d) => (d.paths['/pets/{petId}'].parameters[0].schema.pattern = '^[0-9]+$'),
    expect: each(
      ['getPet', 'deletePet'],
      'request-constraint-added',
      `${ptr('paths', '/pets/{petId}')}/parameters/0/schema/pattern`,
    ),
  },
  {
    name: 'required body field added',
    mutate: (d) => {
      d.components.schemas.NewPet.properties.species = { type: 'string' };
      d.components.schemas.NewPet.required.push('species');
    },
    expect: [['request-property-added-required', 'createPet', `${newPet}/properties/species`]],
  },
  {
    name: 'optional body field added',
    mutate: (d) => (d.components.schemas.NewPet.properties.color = { type: 'string' }),
    expect: [['request-property-added', 'createPet', `${newPet}/properties/color`]],
  },
  {
    name: 'optional body field made required',
    mutate: (d) => d.components.schemas.NewPet.required.push('nickname'),
    expect: [['request-property-became-required', 'createPet', `${newPet}/required`]],
  },
  {
    name: 'body string length narrowed',
    mutate: (d) => (d.components.schemas.NewPet.properties.name.maxLength = 20),
    expect: [['request-bounds-narrowed', 'createPet', `${newPet}/properties/name/maxLength`]],
  },
  {
    name: 'a required readOnly field added to a request schema (never sent): no change',
    mutate: (d) => {
      d.components.schemas.NewPet.properties.createdAt = { type: 'string', readOnly: true };
      d.components.schemas.NewPet.required.push('createdAt');
    },
    expect: [],
  },
  {
    name: 'request object closed',
    mutate: (d) => (d.components.schemas.NewPet.additionalProperties = false),
    expect: [
      ['request-additional-properties-closed', 'createPet', `${newPet}/additionalProperties`],
    ],
  },
  {
    name: 'request body made optional, media type changed',
    mutate: (d) => {
      const body = d.paths['/pets'].post.requestBody;
      body.required = false;
      body.content = { 'application/x-www-form-urlencoded': body.content['application/json'] };
    },
    expect: [
      ['request-body-became-optional', 'createPet', `${create}/requestBody`],
      ['request-body-media-type-changed', 'createPet', `${create}/requestBody/content`],
    ],
  },
  {
    name: 'required response field removed via a shared $ref (once per operation)',
    mutate: (d) => {
      delete d.components.schemas.Pet.properties.id;
      d.components.schemas.Pet.required = ['name', 'kind'];
    },
    expect: each(petOps, 'response-property-removed', `${petSchema}/properties/id`),
  },
  {
    name: 'response field made optional',
    mutate: (d) => (d.components.schemas.Pet.required = ['id', 'kind']),
    expect: each(petOps, 'response-property-became-optional', `${petSchema}/required`),
  },
  {
    name: 'response field type changed',
    mutate: (d) => (d.components.schemas.Pet.properties.age = { type: 'string' }),
    expect: each(petOps, 'response-type-changed', `${petSchema}/properties/age/type`),
  },
  {
    name: 'response field became nullable',
    mutate: (d) => (d.components.schemas.Pet.properties.name.type = ['string', 'null']),
    expect: each(petOps, 'response-type-changed', `${petSchema}/properties/name/type`),
  },
  {
    name: 'optional response field removed',
    mutate: (d) => delete d.components.schemas.Pet.properties.tags,
    expect: each(petOps, 'response-optional-property-removed', `${petSchema}/properties/tags`),
  },
  {
    name: 'response field added',
    mutate: (d) => (d.components.schemas.Pet.properties.color = { type: 'string' }),
    expect: each(petOps, 'response-property-added', `${petSchema}/properties/color`),
  },
  {
    name: 'enum value added to a schema used in requests and responses',
    mutate: (d) => d.components.schemas.Kind.enum.push('bird'),
    expect: [
      ...each(
        ['listPets', 'createPet'],
        'request-enum-value-added',
        '/components/schemas/Kind/enum',
      ),
      ...each(petOps, 'response-enum-value-added', '/components/schemas/Kind/enum'),
    ],
  },
  {
    name: 'response bound widened',
    mutate: (d) =>
      (d.paths['/pets'].get.responses['200'].content[
        'application/json'
      ].schema.properties.Data.maxItems = 100),
    expect: [
      [
        'response-bounds-widened',
        'listPets',
        `${pets}/responses/200/content/application~1json/schema/properties/Data/maxItems`,
      ],
    ],
  },
  {
    name: 'response exclusive maximum relaxed',
    mutate: (d) => {
      const accuracy =
        d.paths['/ip'].get.responses['200'].content['application/json'].schema.properties.data
          .properties.accuracy;
      delete accuracy.exclusiveMaximum;
      accuracy.maximum = 1;
    },
    expect: [
      [
        'response-bounds-widened',
        'getIpLocation',
        `${ip}/responses/200/content/application~1json/schema/properties/data/properties/accuracy/maximum`,
      ],
    ],
  },
  {
    name: 'required response header removed',
    mutate: (d) => delete d.paths['/pets/{petId}'].get.responses['200'].headers['X-Request-Id'],
    expect: [
      ['response-required-header-removed', 'getPet', `${pet}/responses/200/headers/X-Request-Id`],
    ],
  },
  {
    name: 'response header enum value added',
    mutate: (d) =>
      d.paths['/pets/{petId}'].get.responses['200'].headers['X-Cache'].schema.enum.push('stale'),
    expect: [
      ['response-enum-value-added', 'getPet', `${pet}/responses/200/headers/X-Cache/schema/enum`],
    ],
  },
  {
    name: 'envelope spelling changed',
    mutate: (d) => (d.paths['/ip'].get['x-dataapi-envelope'] = 'capitalised'),
    expect: [['envelope-spelling-changed', 'getIpLocation', `${ip}/x-dataapi-envelope`]],
  },
  {
    name: 'key transport removed',
    mutate: (d) => (d.paths['/ip'].get.security = [{ appkeyQuery: [] }]),
    expect: [['key-transport-removed', 'getIpLocation', `${ip}/security`]],
  },
  {
    name: 'key no longer required',
    mutate: (d) => (d.paths['/pets/{petId}'].delete.security = []),
    expect: [['auth-became-optional', 'deletePet', `${del}/security`]],
  },
  {
    name: 'rate limit lowered',
    mutate: (d) => (d.paths['/pets'].get['x-dataapi-rate-limit'] = { limit: 1, per: 'second' }),
    expect: [['rate-limit-lowered', 'listPets', `${pets}/x-dataapi-rate-limit`]],
  },
  {
    name: 'default rate limit raised',
    mutate: (d) => (d['x-dataapi-rate-limit'] = { limit: 10, per: 'second' }),
    expect: each(
      ['createPet', 'getPet', 'deletePet', 'getIpLocation'],
      'rate-limit-raised',
      '/x-dataapi-rate-limit',
    ),
  },
  {
    name: 'business code added to a group',
    mutate: (d) =>
      d['x-dataapi-business-code-groups'].A.codes.push({
        code: 506,
        meaning: 'in arrears',
        outcome: 'in_arrears',
      }),
    expect: each(
      ['listPets', 'createPet', 'getIpLocation'],
      'business-code-added',
      '/x-dataapi-business-code-groups/A/codes/3',
    ),
  },
  {
    name: 'operation deprecated',
    mutate: (d) => (d.paths['/pets/{petId}'].delete.deprecated = true),
    expect: [['api-operation-deprecated', 'deletePet', `${del}/deprecated`]],
  },
  {
    name: 'text-only edits',
    mutate: (d) => {
      d.paths['/pets'].get.summary = 'List every pet';
      d.components.schemas.Pet.properties.name.description = 'What the pet answers to';
      d.info.description = 'Reworded.';
    },
    expect: [['api-operation-text-changed', 'listPets', `${pets}/summary`]],
  },
  {
    name: 'a schema split into allOf parts with the same meaning',
    mutate: (d) => {
      const { id, name, ...rest } = d.components.schemas.Pet.properties;
      d.components.schemas.PetCore = {
        type: 'object',
        required: ['id', 'name'],
        properties: { id, name },
      };
      d.components.schemas.Pet = {
        allOf: [
          { $ref: '#/components/schemas/PetCore' },
          { type: 'object', required: ['kind'], properties: rest },
        ],
      };
    },
    expect: [],
  },
];

async function run(c: Case): Promise<Change[]> {
  const head = headFile(dir, c.name.replace(/\W+/g, '-'), c.mutate);
  return (await diffSpecs({ base: BASE, head })).changes;
}

describe('dataapi diff: the fixture matrix', () => {
  it('has at least 30 changes', () => {
    expect(cases.filter((c) => c.expect.length > 0).length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const changes = await run(c);
    const got = changes.map((x) => `${x.code} ${x.operation} ${x.pointer}`).sort();
    expect(got).toEqual(c.expect.map((e) => e.join(' ')).sort());
    for (const x of changes) {
      expect(x.severity).toBe(RULES[x.code].severity);
      expect(x.method && x.path, x.code).toBeTruthy();
      // Removed things are located in BASE, everything else in HEAD, each with its line.
      expect(x.side).toBe(/-removed$/.test(x.code) && !/enum/.test(x.code) ? 'base' : 'head');
      expect(x.line, `${x.code} ${x.pointer}`).toBeGreaterThan(0);
    }
  });

  it('gives the line in BASE of what was removed', async () => {
    const [change] = await run(cases[0]!);
    const lines = readFileSync(BASE, 'utf8').split('\n');
    expect(lines[change!.line! - 2]).toMatch(/^\s+delete:$/);
    expect(lines[change!.line! - 1]).toMatch(/operationId: deletePet/);
  });
});
