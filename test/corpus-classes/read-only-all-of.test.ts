/**
 * A property readOnly in one allOf part and required in another (PagerDuty REST: `type` of the
 * Tag part is readOnly, the EscalationPolicy part requires it). JSON Schema takes a readOnly that
 * any part sets; the suite's sampler left `type` out of requests, as OpenAPI lets it, but the
 * mock's request view waived it only where `required` and the readOnly flag stood together, and
 * refused every valid request. `name` stays required; responses still need `type`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('read-only-all-of.yaml');
});
afterAll(() => served?.close());

describe('readOnly in one allOf part, required in another', () => {
  it('is waived in a request; the rest of required is not', async () => {
    const url = `${served.url}/policies/abc`;
    expect((await send(url, 'PUT', { policy: { name: 'on call' } })).status).toBe(200);
    expect((await send(url, 'PUT', { policy: { type: 'policy', name: 'x' } })).status).toBe(200);
    expect((await send(url, 'PUT', { policy: { type: 'policy' } })).status).toBe(400);
    expect((await send(url, 'PUT', { policy: { name: 'x', type: 'other' } })).status).toBe(400);
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('read-only-all-of.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
