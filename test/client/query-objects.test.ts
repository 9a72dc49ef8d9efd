/**
 * The client writes a query object with a list or object inside (AWS query-protocol descriptions:
 * CloudFormation's RollbackConfiguration.RollbackTriggers) as the server reads it back: the inner
 * value as JSON text (no OpenAPI style writes it). openapi-fetch's serialiser threw on it.
 */
import { expect, it } from 'vitest';
import { querySerializerFor } from '../../runtime/client/serialize.ts';
import { modelOf } from '../server/serve-fixture.ts';

const doc = {
  openapi: '3.0.3',
  info: { title: 'query objects', version: '1' },
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
                  items: { type: 'object', properties: { Arn: { type: 'string' } } },
                },
                Minutes: { type: 'integer' },
              },
            },
          },
          {
            name: 'Filter',
            in: 'query',
            style: 'deepObject',
            schema: {
              type: 'object',
              properties: { Values: { type: 'array', items: { type: 'string' } } },
            },
          },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

it('writes lists and objects inside a query object as JSON text', () => {
  const model = modelOf(doc);
  const write = querySerializerFor(model.operations[0]!);
  const triggers = [{ Arn: 'a&b' }];
  expect(write({ RollbackConfiguration: { RollbackTriggers: triggers, Minutes: 5 } })).toBe(
    `RollbackTriggers=${encodeURIComponent(JSON.stringify(triggers))}&Minutes=5`,
  );
  expect(write({ Filter: { Values: ['x', 'y'] } })).toBe(
    `Filter[Values]=${encodeURIComponent(JSON.stringify(['x', 'y']))}`,
  );
});
