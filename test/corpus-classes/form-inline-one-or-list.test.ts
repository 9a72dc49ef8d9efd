/**
 * A form body's field that is one value or a list (`anyOf: [string, array of strings]`) or a
 * value or null, in a body schema written inline where no component has a `oneOf` or `anyOf`:
 * the text view (model/validate-views.ts) that guards such options was made only when the
 * components changed under it, so the inline body was validated as written and Ajv's list
 * coercion turned the one value into a list of one, and the null option took `false`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('form-inline-one-or-list.yaml'));
});
afterAll(() => served?.close());

const post = async (form: string) => {
  const res = await fetch(`${served.url}/settings`, {
    method: 'POST',
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  expect(res.status, `${form}: ${text}`).toBe(200);
  return (JSON.parse(text) as { body: unknown }).body;
};

describe('an inline form body with a one-or-list field', () => {
  it('one value reaches the handler as one value, a list as a list', async () => {
    expect(await post('granularity=word&flag=false')).toEqual({ granularity: 'word', flag: false });
    expect(await post('granularity=word&granularity=segment')).toEqual({
      granularity: ['word', 'segment'],
    });
    expect(await post('flag=')).toEqual({ flag: null });
  });
});
