/**
 * A header parameter the HTTP layer writes from the body (Content-Length: corpus Mojaloop). The
 * suite sent a sampled value in its place, which cut bodies short or left the server waiting for
 * more (socket hang ups, "body size did not match"), and built negatives (`Content-Length="abc"`)
 * that the transport rewrites as the body's length, so the request went out valid. The transport
 * writes it; no invalid value of it is a case; the other headers keep theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negativeCases } from '../../contract-tests/negatives.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { expectPassed, fixture, ownSuite, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('content-length-header.yaml');
});
afterAll(() => served?.close());

describe('a declared Content-Length header', () => {
  it('is left to the transport, and no invalid value of it is a case', () => {
    const op = served.model.operations[0]!;
    const labels = negativeCases(served.model, op).map((c) => c.label);
    expect(labels.filter((l) => /content-length/i.test(l))).toEqual([]);
    expect(labels.some((l) => l.startsWith('header FSPIOP-Source'))).toBe(true);
    const [spec] = validRequests(served.model, op);
    const sent = serialise(op, spec!, {
      path: op.path,
      key: 'none',
      appkey: '',
      purpose: 'class',
      model: served.model,
    });
    expect(Object.keys(sent.headers).map((h) => h.toLowerCase())).not.toContain('content-length');
    expect(sent.headers['FSPIOP-Source']).toMatch(/^[a-z]+$/);
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('content-length-header.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
