/**
 * Required response headers (openbankingproject.ch's X-Request-ID on every response): the mock
 * sends them on its success answers, its refusals and a wrong method's 405 alike, with the
 * header's example where it has one and a sample of its schema otherwise.
 */
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMock } from 'dataapi/runtime/mock';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

const EXAMPLE = '99391c7e-ad88-49ec-a2ad-99ddcb1f7721';

it('every answer carries the headers its declared response requires', async () => {
  const spec = path.join(FIXTURES, 'generality/required-headers.yaml');
  app = await createMock(normalise(await loadSpec(spec)), { rateLimit: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const call = (method: string, query = '', headers: Record<string, string> = {}) =>
    fetch(`${url}/payments/p-1${query}`, {
      method,
      headers: { 'x-request-id': EXAMPLE, ...headers },
    });

  const ok = await call('GET');
  expect(ok.status).toBe(200);
  expect(ok.headers.get('x-request-id')).toBe(EXAMPLE);
  // No example: a sample of the schema (an integer from 0 to 100).
  expect(ok.headers.get('x-rate-remaining')).toMatch(/^\d+$/);
  expect(Number(ok.headers.get('x-rate-remaining'))).toBeLessThanOrEqual(100);
  // A list in simple style: integers, comma-separated.
  expect(ok.headers.get('x-shards')).toMatch(/^\d+(,\d+)*$/);

  const refused = await call('GET', '?limit=0');
  expect(refused.status).toBe(400);
  expect(refused.headers.get('x-request-id')).toBe(EXAMPLE);
  expect(refused.headers.get('x-rate-remaining')).toBeNull(); // not the 400's header

  const wrongMethod = await call('PATCH');
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('x-request-id')).toBe(EXAMPLE);

  const declared = await call('DELETE', '', { prefer: 'code=204' });
  expect(declared.status).toBe(204);
  expect(declared.headers.get('x-request-id')).toBe(EXAMPLE);
});
