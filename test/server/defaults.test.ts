/**
 * Defaults are filled in after validation, not before (issue 26, class 3): a required field with
 * a default must still be sent, and a default the schema refuses neither makes the server refuse
 * requests that leave it out nor reaches the handler; one not of its own type is a warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { callJson, serveFixture, type ServedFixture } from './serve-fixture.ts';

let served: ServedFixture;
let url: string;
let model: ServiceModel;
beforeAll(async () => {
  served = await serveFixture('generality/defaults.yaml');
  model = served.model;
  url = served.url;
});
afterAll(() => served.close());

const call = (p: string, body?: unknown) => callJson(url, p, body);

describe('defaults', () => {
  it('are not filled in before validation: a missing required field with a default is refused', async () => {
    const res = await call('/things', { colour: 'red' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/name/);
  });

  it('are filled in after validation, for the handler', async () => {
    const res = await call('/things', { name: 'n' });
    expect(res.status).toBe(200);
    expect(res.body['body']).toEqual({ name: 'n', colour: 'blue' });
    const list = await call('/items');
    expect(list.status).toBe(200);
    expect(list.body['query']).toMatchObject({ page: 3 });
  });

  it('that the schema refuses do not make the request refused, and are left out', async () => {
    const res = await call('/items?page=2');
    expect(res.status).toBe(200);
    expect(res.body['query']).toEqual({ page: 2 });
    expect((await call('/items?offset=0')).status).toBe(400);
  });

  it('not of their own type are a description warning, with their place', () => {
    const found = model.findings.filter((f) => f.code === 'schema-bad-default');
    expect(found.map((f) => f.pointer)).toEqual(['/paths/~1items/get/parameters/0/schema/default']);
    expect(found[0]?.message).toMatch(/default "null" does not fit its own schema/);
  });
});
