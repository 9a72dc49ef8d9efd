/**
 * A required header parameter whose schema is readOnly (Invoice Ninja's X-Requested-With, on
 * every operation). As for a body field, readOnly waives `required` in a request: the mock and
 * the suite's own judge of what it sent read it so, but the suite still built "header missing
 * (required)" negatives and fuzz cases, each then a toolkit fault (1,144 on one description).
 * They are not built now; a required header that is not readOnly keeps its case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negativeCases } from '../../contract-tests/negatives.ts';
import { fieldsOf } from '../../contract-tests/fuzz/fields.ts';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('read-only-header.yaml');
});
afterAll(() => served?.close());

describe('a required header whose schema is readOnly', () => {
  it('has no missing case; the other required header keeps its own', () => {
    const op = served.model.operations[0]!;
    const missing = negativeCases(served.model, op)
      .filter((c) => c.kind === 'missing')
      .map((c) => c.label);
    expect(missing).toEqual(['header X-Client missing (required)']);
    const required = fieldsOf(served.model, op)
      .filter((f) => f.required && f.loc === 'header')
      .map((f) => f.name);
    expect(required).toEqual(['X-Client']);
  });

  it('is not demanded by the mock; the other one is', async () => {
    expect(
      (await send(`${served.url}/invoices/abc`, 'GET', undefined, { 'x-client': 'web' })).status,
    ).toBe(200);
    expect((await send(`${served.url}/invoices/abc`, 'GET')).status).toBe(400);
  });

  it('passes the suite and its fuzz against its own mock, with no toolkit fault', async () => {
    const { run, tail } = await ownSuite(fixture('read-only-header.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
