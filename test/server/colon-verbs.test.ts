/**
 * `{x}:verb` templates of one path are routes of their own (issue 26, found by the corpus run on
 * Google's descriptions): find-my-way read `:name::execute` as a parameter named `name::execute`,
 * so `/v1/{name}:execute` and `/v1/{integrationVersion}:takeoverEditLock` were one route, the
 * second's requests reached the first (400: its parameter missing) and a wrong method got 400, not
 * 405.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import type { Handler } from 'dataapi/runtime/server';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';
import { modelOf, serveFixture, type ServedFixture } from './serve-fixture.ts';

let served: ServedFixture | undefined;
afterEach(() => served?.close());

/** Serves the model with handlers that answer which operation they are and its parameters. */
async function serveById(model: ServiceModel): Promise<string> {
  const handlers = Object.fromEntries(
    model.operations.map((o) => {
      const handler: Handler = async ({ path: params }) => ({ op: o.id, params });
      return [o.id, handler];
    }),
  );
  served = await serveFixture(model, handlers);
  return served.url;
}

describe('templates with a :verb suffix', () => {
  it('route each request to its own operation, with its parameter', async () => {
    const model = normalise(await loadSpec(path.join(FIXTURES, 'generality/colon-verbs.yaml')));
    const url = await serveById(model);
    const call = async (method: string, p: string) => {
      const res = await fetch(url + p, { method });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await call('POST', '/v1/veo:execute')).toEqual({
      status: 200,
      body: { op: 'execute', params: { name: 'veo' } },
    });
    expect(await call('POST', '/v1/veo:takeoverEditLock')).toEqual({
      status: 200,
      body: { op: 'takeoverEditLock', params: { integrationVersion: 'veo' } },
    });
    // A value with an encoded slash or colon is one segment still (the fuzzer sends such values).
    expect(await call('POST', '/v1/a%2Fb%3Ac:execute')).toEqual({
      status: 200,
      body: { op: 'execute', params: { name: 'a/b:c' } },
    });
    expect((await call('POST', '/v1/a/b:execute')).status).toBe(404);
    expect((await call('GET', '/v1/veo')).body).toMatchObject({ op: 'getThing' });
    expect((await call('POST', '/v1/veo')).status).toBe(405);
    expect((await call('POST', '/v1/veo:other')).status).toBe(405);
  });
});

describe('parameters sharing a segment with other text', () => {
  it('are told apart at any separator (corpus: lufthansa.com {latitude},{longitude})', async () => {
    const ok = { '200': { description: 'ok', content: { 'application/json': { schema: {} } } } };
    const int = (name: string) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'integer' },
    });
    const str = (name: string) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    });
    const document = {
      openapi: '3.0.3',
      info: { title: 'shared segments', version: '1' },
      paths: {
        '/nearest/{latitude},{longitude}': {
          get: {
            operationId: 'nearest',
            parameters: [int('latitude'), int('longitude')],
            responses: ok,
          },
        },
        '/tracking/{prefix}-{number}': {
          get: {
            operationId: 'tracking',
            parameters: [str('prefix'), str('number')],
            responses: ok,
          },
        },
        '/files/{name}.json': {
          get: { operationId: 'file', parameters: [str('name')], responses: ok },
        },
      },
    };
    const model = modelOf(document);
    const url = await serveById(model);
    const get = async (p: string) => {
      const res = await fetch(url + p);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await get('/nearest/-12,34')).toEqual({
      status: 200,
      body: { op: 'nearest', params: { latitude: -12, longitude: 34 } },
    });
    expect((await get('/tracking/020-123')).body).toEqual({
      op: 'tracking',
      params: { prefix: '020', number: '123' },
    });
    expect((await get('/files/report.v2.json')).body).toEqual({
      op: 'file',
      params: { name: 'report.v2' },
    });
  });
});
