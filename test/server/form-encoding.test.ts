/**
 * Form bodies written and read per their `encoding` (issue 26, class 2): the suite and the client
 * write deepObject fields in the bracket form (`metadata[plan]=gold`, never JSON text), lists not
 * exploded joined by their style's delimiter, form-style objects as `k,v,...` or as their own
 * fields; the server (and so the mock) reads each back, so the example is sent and accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForm } from 'dataapi/runtime/shared';
import type { ServiceModel } from 'dataapi/model';
import { validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { bodySerializerFor } from '../../runtime/client/serialize.ts';
import { serveFixture, type ServedFixture } from './serve-fixture.ts';

let model: ServiceModel;
let served: ServedFixture;
let url: string;
beforeAll(async () => {
  served = await serveFixture('formats/form-encoding.yaml');
  model = served.model;
  url = served.url;
});
afterAll(() => served.close());

const op = () => model.operations[0]!;
const EXAMPLE = {
  name: 'Ada',
  metadata: { plan: 'gold', source: 'web' },
  tags: ['a', 'c'],
  ids: [1, 2],
  address: { city: 'Paris', zip: 75001 },
  prefs: { color: 'blue', size: 3 },
  note: { text: 'hello' },
};

describe('form bodies by their encoding', () => {
  it('are written field by field as the encoding says, objects never as JSON text', () => {
    const wire = decodeURIComponent(encodeForm(EXAMPLE, op().body!.encoding));
    expect(wire.split('&')).toEqual([
      'name=Ada',
      'metadata[plan]=gold',
      'metadata[source]=web',
      'tags=a,c',
      'ids=1|2',
      'address=city,Paris,zip,75001',
      'color=blue',
      'size=3',
      'note[text]=hello',
    ]);
    // The generated client's serialiser writes the same text.
    expect(bodySerializerFor(op(), model)(EXAMPLE)).toBe(encodeForm(EXAMPLE, op().body!.encoding));
  });

  it("the suite's valid request (example and deepObject query) is accepted as it was meant", async () => {
    const [spec] = validRequests(model, op());
    expect(spec).toBeDefined();
    const out = serialise(op(), spec!, {
      path: op().path,
      key: 'none',
      appkey: '',
      purpose: 'valid',
    });
    expect(out.pathAndQuery).toMatch(/filter%5Bplan%5D=|filter\[plan\]=/);
    expect(String(out.body)).not.toMatch(/%7B|\{/); // no JSON text
    const res = await fetch(url + out.pathAndQuery, {
      method: 'POST',
      headers: out.headers,
      body: out.body as string,
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const echoed = JSON.parse(text) as { body: unknown; query: Record<string, unknown> };
    expect(echoed.body).toEqual(EXAMPLE);
    expect(echoed.query['filter']).toMatchObject({ plan: expect.stringMatching(/^(free|paid)$/) });
  });
});
