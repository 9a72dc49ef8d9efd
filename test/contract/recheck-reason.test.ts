/**
 * A refusal always says why (corpus hhs.gov: "refused by the description as it was sent (HTTP
 * 400: )"). A declared error without content answers an empty body: the reason travels in the
 * `x-dataapi-reason` header, and the recheck reads it from there before the body.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { createMock } from 'dataapi/runtime/mock';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import type { Probe } from '../../contract-tests/probe.ts';
import { faultOf, recheck, rememberSent } from '../../contract-tests/recheck.ts';
import { ROOT } from './harness.ts';

let model: ServiceModel;
let mock: FastifyInstance;
let url: string;
beforeAll(async () => {
  model = normalise(await loadSpec(path.join(ROOT, 'test/fixtures/recheck/empty-error.yaml')));
  mock = await createMock(model, { rateLimit: false, logger: false });
  url = await mock.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => mock?.close());

it('the mock refuses with an empty body as declared, and says why in a header', async () => {
  const res = await fetch(`${url}/tags/abc`);
  expect(res.status).toBe(400);
  expect(await res.text()).toBe('');
  expect(res.headers.get('x-dataapi-reason')).toMatch(/id must be integer/);
});

it('a generated valid request refused there: the toolkit fault carries the reason', async () => {
  const op = model.operations.find((o) => o.id === 'getTag')!;
  const probe = { role: 'valid', generated: true, op } as unknown as Probe;
  rememberSent(probe, {
    method: 'get',
    pathAndQuery: '/tags/abc',
    headers: {},
    purpose: 'fuzz valid',
    parameters: ['path.id'],
  });
  expect(await recheck(model, '', probe)).toMatchObject({ valid: false, status: 400 });
  expect(faultOf('status', probe)).toMatch(/HTTP 400: params\/id must be integer\)/);
});
