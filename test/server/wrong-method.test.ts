/**
 * 405 on descriptions nobody here wrote (found on GitHub's): templates that differ only in their
 * parameter names are one route, so a path both match allows the methods of both; the 405 takes
 * the shape an operation of the path declares for it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from 'dataapi/runtime/mock';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const json = (schema: object) => ({ 'application/json': { schema } });
const ok = { description: 'ok', content: json({ type: 'object' }) };
const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const doc = {
  openapi: '3.1.0',
  info: { title: 'wrong methods', version: '1' },
  paths: {
    '/attestations/{subject_digest}': {
      get: { operationId: 'list', parameters: [id('subject_digest')], responses: { '200': ok } },
    },
    '/attestations/{attestation_id}': {
      delete: {
        operationId: 'remove',
        parameters: [id('attestation_id')],
        responses: { '204': { description: 'gone' } },
      },
    },
    '/merge': {
      get: { operationId: 'checkMerged', responses: { '204': { description: 'merged' } } },
      put: {
        operationId: 'merge',
        responses: {
          '200': ok,
          '405': {
            description: 'cannot be merged',
            content: json({
              type: 'object',
              required: ['message'],
              properties: { message: { type: 'string' } },
            }),
          },
        },
      },
    },
  },
};

let served: ServedFixture;
let mock: FastifyInstance;
let url: string;
let mockUrl: string;
beforeAll(async () => {
  served = await serveDocument(doc, {});
  url = served.url;
  mock = await createMock(served.model, { rateLimit: false });
  mockUrl = await mock.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await served?.close();
  await mock?.close();
});

describe('a method no operation of the path takes', () => {
  it('allows the methods of every template the path matches, whatever their parameter names', async () => {
    for (const base of [url, mockUrl]) {
      const res = await fetch(`${base}/attestations/abc`, { method: 'PATCH' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET']);
    }
  });

  it('answers in the shape an operation of the path declares for 405', async () => {
    for (const base of [url, mockUrl]) {
      const res = await fetch(`${base}/merge`, { method: 'POST' });
      expect(res.status).toBe(405);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'PUT']);
    }
    // The mock fills the declared body schema.
    const res = await fetch(`${mockUrl}/merge`, { method: 'POST' });
    expect(typeof ((await res.json()) as { message?: unknown }).message).toBe('string');
  });
});
