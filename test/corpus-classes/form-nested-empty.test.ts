/**
 * A form body (Stripe's) with free-form objects (`metadata`), a required list deep inside, and
 * lists inside `anyOf` branches (`anyOf: [array of objects, enum: ['']]`). Three disagreements
 * between what the suite sends and what the server reads (agreement by construction: 105 + 10
 * findings over stripe.com, salesloft.com, seldon.local):
 * - a form writes no pair for an empty list or object, so `metadata: {}` came back absent and a
 *   required `options: []` was refused: the suite's form samples now hold no empty ones
 *   (sampler `filled`);
 * - `document[allowed_types][]=passport` stayed an object of `''` keys: the form's shaping now
 *   looks into `anyOf`/`oneOf` branches;
 * - Ajv's array coercion in the `enum: ['']` option unwrapped a list of one object in place, for
 *   the list option too: a one-value option no longer sees a list of objects (validate-views.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('form-nested-empty.yaml'));
});
afterAll(() => served?.close());

const post = async (form: string) => {
  const res = await fetch(`${served.url}/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, text, body: (JSON.parse(text) as { body?: unknown }).body };
};

/** Every empty list or object inside a value, by its path. */
function empties(v: unknown, at = ''): string[] {
  if (typeof v !== 'object' || v === null) return [];
  const entries = Object.entries(v);
  if (entries.length === 0) return [at || '/'];
  return entries.flatMap(([k, x]) => empties(x, `${at}/${k}`));
}

describe('a form body with nested lists and free-form objects', () => {
  it('the suite sends no empty list or object in a form', () => {
    const op = served.model.operations[0]!;
    const [spec] = validRequests(served.model, op);
    expect(empties(spec!.body)).toEqual([]);
    expect(spec!.body).toHaveProperty('metadata');
  });

  it('a list of one object inside an anyOf branch is read as that list', async () => {
    const one = await post('discounts[0][coupon]=summer');
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({ discounts: [{ coupon: 'summer' }] });
    const none = await post('discounts=');
    expect(none.status, none.text).toBe(200);
    expect(none.body).toEqual({ discounts: '' });
  });

  it('a list in an object that is one branch of an anyOf is read as a list', async () => {
    const res = await post('document[allowed_types][]=passport');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ document: { allowed_types: ['passport'] } });
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 8 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
