/**
 * An operation that declares only `default` (found on @readme/oas-examples' 3.1 petstore:
 * `logoutUser`, `createUser`): the mock answers that response as a 200, with no body where it
 * declares none, instead of a JSON `null`.
 */
import { describe, expect, it } from 'vitest';
import { createMock } from 'dataapi/runtime/mock';
import { normalise } from '../../generator/normalise/index.ts';

const doc = {
  openapi: '3.1.0',
  info: { title: 'default only', version: '1' },
  paths: {
    '/logout': { get: { operationId: 'logout', responses: { default: { description: 'done' } } } },
    '/status': {
      get: {
        operationId: 'status',
        responses: {
          default: {
            description: 'the status',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['up'],
                  properties: { up: { type: 'boolean' } },
                },
              },
            },
          },
        },
      },
    },
  },
};

describe('an operation that declares only default', () => {
  it('answers it as a 200: no body where none is declared, else its schema', async () => {
    const model = normalise({ file: 'inline.json', locate: () => undefined, document: doc });
    const app = await createMock(model, { rateLimit: false });
    try {
      const logout = await app.inject({ url: '/logout' });
      expect(logout.statusCode).toBe(200);
      expect(logout.body).toBe('');
      expect(logout.headers['content-type']).toBeUndefined();
      const status = await app.inject({ url: '/status' });
      expect(status.statusCode).toBe(200);
      expect(typeof status.json<{ up: unknown }>().up).toBe('boolean');
    } finally {
      await app.close();
    }
  });
});
