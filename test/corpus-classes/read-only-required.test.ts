/**
 * Class 3 of issue 48: `required` properties a request body does not carry. Per OpenAPI 3.x a
 * readOnly property in `required` binds responses only (a writeOnly one requests only), wherever
 * the `required` stands: in a oneOf branch, through allOf, in a multipart or form body. A
 * discriminator's property the suite's sample fills with a mapping value. The suite's requests
 * (samples) are sent to the mock for real and taken; its answers leave writeOnly properties out
 * and are judged valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorFor, directionalErrors } from 'dataapi/runtime/shared';
import { validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { expectPassed, fixture, ownSuite, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('read-only-required.yaml');
});
afterAll(() => served?.close());

const opOf = (id: string) => served.model.operations.find((o) => o.id === id)!;

async function sendAsSuite(id: string, body: unknown) {
  const op = opOf(id);
  const request = serialise(
    op,
    { name: 'class 3', path: {}, query: {}, header: {}, cookie: {}, body },
    { path: op.path, key: 'none', appkey: '', purpose: 'class 3', model: served.model },
  );
  const res = await fetch(served.url + request.pathAndQuery, {
    method: request.method.toUpperCase(),
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as unknown };
}

describe('required properties a request leaves out', () => {
  it("the suite's samples fill a discriminator's property with a mapping value, never readOnly ones", () => {
    const [spec] = validRequests(served.model, opOf('addPet'));
    const body = spec!.body as Record<string, unknown>;
    expect(['cat', 'dog']).toContain(body['petType']);
    expect(body).not.toHaveProperty('id');
  });

  it('the mock takes them: JSON in a oneOf, multipart and form', async () => {
    for (const id of ['addPet', 'addOwner', 'addAccount'])
      for (const spec of validRequests(served.model, opOf(id))) {
        const got = await sendAsSuite(id, spec.body);
        expect(got.status, `${id} ${JSON.stringify(spec.body)}: ${got.text}`).toBe(201);
      }
  });

  it('the mock still demands what a request must send', async () => {
    const cat = { petType: 'cat', name: 'Tom', lives: 9 };
    expect((await sendAsSuite('addPet', cat)).status).toBe(201);
    const { name: _name, ...nameless } = cat;
    expect((await sendAsSuite('addPet', nameless)).status).toBe(400);
    expect((await sendAsSuite('addPet', { ...cat, petType: 'cow' })).status).toBe(400);
    expect((await sendAsSuite('addAccount', { login: 'ann' })).status).toBe(400);
    expect((await sendAsSuite('addOwner', {})).status).toBe(400);
  });

  it("the mock's answers leave writeOnly properties out and are valid answers", async () => {
    const got = await sendAsSuite('addAccount', { login: 'ann', password: 'secret' });
    expect(got.status, got.text).toBe(201);
    expect(got.json).not.toHaveProperty('password');
    const schema = opOf('addAccount').responses.find((r) => r.status === '201')!.schema!;
    const validate = validatorFor(served.model).compile(schema);
    const errors = validate(got.json)
      ? []
      : directionalErrors(served.model, validate.errors, 'response');
    expect(errors).toEqual([]);
  });
});

describe('contract --spec on the description', () => {
  it('passes against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('read-only-required.yaml'));
    expectPassed(run, tail);
  }, 120_000);
});
