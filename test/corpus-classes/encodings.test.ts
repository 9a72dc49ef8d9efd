/**
 * Class 2 of issue 48: what the contract suite writes in a form or multipart body, the mock reads
 * back as the same value. Lists of objects and lists of scalars nested in objects
 * (`customer[lines][0][sku]=`, `customer[tags][]=`), lists of objects at the top, and a multipart
 * field whose schema is a link or null. A round trip over real HTTP: the suite's serialiser, the
 * mock's parsers and validation, a handler that echoes what it was given; then the mock with its
 * own handlers takes every request the suite builds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from 'dataapi/model';
import type { Handler } from 'dataapi/runtime/server';
import { validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { expectPassed, fixture, ownSuite, serve, type Served } from './helpers.ts';

const echo: Handler = async ({ body }) => ({ body });

const ORDER = {
  customer: {
    name: 'Ann',
    tags: ['new', 'vip'],
    lines: [
      { sku: 'a-1', qty: 2 },
      { sku: 'b-2', qty: 1 },
    ],
    address: { street: 'Main 1', floors: [1, 2] },
  },
  items: [{ id: 1, note: 'first' }, { id: 2, note: null }, { id: 3 }],
  flags: [true, false],
};

/** The suite's request for a body, sent as the suite sends it. */
async function sendAsSuite(served: Served, op: Operation, body: unknown) {
  const request = serialise(
    op,
    { name: 'round trip', path: {}, query: {}, header: {}, cookie: {}, body },
    { path: op.path, key: 'none', appkey: '', purpose: 'round trip', model: served.model },
  );
  const res = await fetch(served.url + request.pathAndQuery, {
    method: request.method.toUpperCase(),
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as { body?: unknown } };
}

const opOf = (served: Served, id: string) => served.model.operations.find((o) => o.id === id)!;

describe('form and multipart bodies: the suite writes, the mock reads back', () => {
  let echoing: Served;
  let mock: Served;
  beforeAll(async () => {
    echoing = await serve('encodings.yaml', { handlers: { createOrder: echo, upload: echo } });
    mock = await serve('encodings.yaml');
  });
  afterAll(async () => {
    await echoing?.close();
    await mock?.close();
  });

  it('a form with lists of objects and lists nested in objects', async () => {
    const got = await sendAsSuite(echoing, opOf(echoing, 'createOrder'), ORDER);
    expect(got.status, got.text).toBe(201);
    expect(got.json.body).toEqual(ORDER);
  });

  it('a one-item list nested in an object stays a list', async () => {
    const one = {
      customer: { name: 'Bo', tags: ['x'], lines: [{ sku: 'c', qty: 1 }] },
      items: [{ id: 9 }],
    };
    const got = await sendAsSuite(echoing, opOf(echoing, 'createOrder'), one);
    expect(got.status, got.text).toBe(201);
    expect(got.json.body).toEqual(one);
  });

  it('a multipart field that is a link or null', async () => {
    const op = opOf(echoing, 'upload');
    for (const source of ['https://example.com/a', null]) {
      const body = { file: 'a.txt', source, count: 2 };
      const got = await sendAsSuite(echoing, op, body);
      expect(got.status, got.text).toBe(201);
      expect(got.json.body).toEqual({ source, count: 2 });
    }
  });

  it("the mock takes every valid request the suite builds from the description's samples", async () => {
    for (const op of mock.model.operations)
      for (const spec of validRequests(mock.model, op)) {
        const got = await sendAsSuite(mock, op, spec.body);
        expect(got.status, `${op.id} ${JSON.stringify(spec.body)}: ${got.text}`).toBe(201);
        const back = await sendAsSuite(echoing, op, spec.body);
        expect(back.status, back.text).toBe(201);
        const { file: _file, ...fields } = spec.body as Record<string, unknown>;
        expect(back.json.body, op.id).toEqual(op.id === 'upload' ? fields : spec.body);
      }
  });
});

describe('contract --spec on the encodings description', () => {
  it('passes against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('encodings.yaml'));
    expectPassed(run, tail);
  }, 120_000);
});
