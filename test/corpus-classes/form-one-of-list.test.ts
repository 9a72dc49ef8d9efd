/**
 * Class 4 of issue 48 in a body: a form or multipart field whose schema is `oneOf: [a value, a
 * list of them]` (Together's `timestamp_granularities`). Its fields are text, read under array
 * coercion as parameters are, so one value fits both options and `oneOf` refused it: the fuzz's
 * valid requests were refused by the mock and the recheck, toolkit faults. A text body now reads
 * `oneOf` as `anyOf`, as parameters do; what fits neither is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('form-one-of-list.yaml');
});
afterAll(() => served?.close());

async function post(path: string, body: FormData | URLSearchParams) {
  const res = await fetch(served.url + path, { method: 'POST', body });
  return { status: res.status, text: await res.text() };
}

function upload(...granularities: string[]) {
  const form = new FormData();
  form.append('file', new Blob(['RIFF']), 'a.wav');
  for (const g of granularities) form.append('timestamp_granularities', g);
  return form;
}

describe('a text field that is one value or a list of them', () => {
  it('takes one value and a list, in multipart and in a form', async () => {
    for (const form of [upload('word'), upload('word', 'segment'), upload()]) {
      const got = await post('/transcriptions', form);
      expect(got.status, got.text).toBe(200);
    }
    for (const q of ['granularities=word', 'granularities=word&granularities=segment']) {
      const got = await post('/settings', new URLSearchParams(q));
      expect(got.status, `${q}: ${got.text}`).toBe(200);
    }
  });

  it('refuses what fits neither option', async () => {
    expect((await post('/transcriptions', upload('line'))).status).toBe(400);
    expect((await post('/settings', new URLSearchParams('granularities=line'))).status).toBe(400);
  });

  it('passes the suite and its fuzz against its own mock, with no toolkit fault', async () => {
    const { run, tail } = await ownSuite(fixture('form-one-of-list.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
