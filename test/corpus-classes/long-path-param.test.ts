/**
 * A path parameter longer than the router takes (1000 characters): the router matched no route,
 * and the not-found handler, finding the path and the method an operation's, answered "405 GET is
 * not allowed here; allowed: GET" (corpus PayPal payouts). It is now a 414 (RFC 9110 §15.5.15)
 * in the operation's error shape, which the suite's negative case takes as a refusal; a wrong
 * method is still a 405 and a parameter just under the bound is routed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PARAM_LENGTH } from 'dataapi/runtime/server';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('long-path-param.yaml');
});
afterAll(() => served?.close());

describe('a path parameter longer than the router takes', () => {
  it('is a 414 in the error shape, not a 405 that allows the method', async () => {
    const long = await send(`${served.url}/payouts/${'x'.repeat(MAX_PARAM_LENGTH + 1)}`, 'GET');
    expect(long.status, long.text).toBe(414);
    expect(long.text).toContain('longer than the 1000 characters');
    const routed = await send(`${served.url}/payouts/${'x'.repeat(MAX_PARAM_LENGTH)}`, 'GET');
    expect(routed.status, routed.text).toBe(200);
    expect((await send(`${served.url}/payouts/abc`, 'DELETE')).status).toBe(405);
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('long-path-param.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
