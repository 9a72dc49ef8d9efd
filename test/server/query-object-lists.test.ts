/**
 * Lists inside query objects (corpus amazonaws.com/cloudformation, RollbackConfiguration with its
 * RollbackTriggers; ec2, Recurrence.OccurrenceDays): no style writes them, so they travel as JSON
 * text like nested objects do, and the server read them as one string ("RollbackTriggers/0 must be
 * object"). A property whose name another query parameter writes too is that parameter's, not the
 * object's (DeploymentTargets.Accounts beside Accounts: model/query-objects.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const accounts = { type: 'array', items: { type: 'string', pattern: '^[0-9]{3}$' } };
const doc = {
  openapi: '3.0.3',
  info: { title: 'query object lists', version: '1' },
  paths: {
    '/stacks': {
      get: {
        operationId: 'createStack',
        parameters: [
          {
            name: 'RollbackConfiguration',
            in: 'query',
            schema: {
              type: 'object',
              properties: {
                RollbackTriggers: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['Arn'],
                    properties: { Arn: { type: 'string' } },
                  },
                },
                Days: { type: 'array', items: { type: 'integer' } },
                Minutes: { type: 'integer' },
              },
            },
          },
          { name: 'Accounts', in: 'query', schema: accounts },
          {
            name: 'DeploymentTargets',
            in: 'query',
            schema: {
              type: 'object',
              properties: { Accounts: accounts, Url: { type: 'string' } },
            },
          },
          {
            name: 'Filter',
            in: 'query',
            style: 'deepObject',
            schema: {
              type: 'object',
              properties: { Values: { type: 'array', items: { type: 'integer' } } },
            },
          },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: {} } } },
        },
      },
    },
  },
};

let served: ServedFixture;
beforeAll(async () => {
  served = await serveDocument(doc);
});
afterAll(() => served?.close());

const get = async (query: string) => {
  const res = await fetch(`${served.url}/stacks?${query}`);
  const body = (await res.json()) as { query?: Record<string, unknown> };
  return { status: res.status, body, query: body.query ?? {} };
};
const j = (v: unknown) => encodeURIComponent(JSON.stringify(v));

it('reads lists inside an exploded query object from their JSON text', async () => {
  const r = await get(
    `RollbackTriggers=${j([{ Arn: 'a' }, { Arn: 'b' }])}&Days=${j([1, 2])}&Minutes=5`,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.query['RollbackConfiguration']).toEqual({
    RollbackTriggers: [{ Arn: 'a' }, { Arn: 'b' }],
    Days: [1, 2],
    Minutes: 5,
  });
  // A list of scalars repeated in the form style still reads as the list.
  const repeated = await get('Days=1&Days=2');
  expect(repeated.status).toBe(200);
  expect(repeated.query['RollbackConfiguration']).toEqual({ Days: [1, 2] });
  // Not a list of objects: still refused by the schema.
  expect((await get(`RollbackTriggers=${j(['x'])}`)).status).toBe(400);
});

it('reads a list inside a deepObject parameter from its JSON text', async () => {
  const r = await get(`Filter%5BValues%5D=${j([3, 4])}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect({ ...(r.query['Filter'] as object) }).toEqual({ Values: [3, 4] });
});

it('leaves a property named like another query parameter to that parameter', async () => {
  const r = await get('Accounts=123&Accounts=456&Url=u');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.query['Accounts']).toEqual(['123', '456']);
  expect(r.query['DeploymentTargets']).toEqual({ Url: 'u' });
});
