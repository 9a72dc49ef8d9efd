/**
 * A real server of a small description for a test file: registerService on Fastify (no rate
 * limits, any key), listening on 127.0.0.1 on an ephemeral port. Handlers default to an echo of
 * what the operation received (body, query, path, cookie header), so a test sees what the server
 * decoded.
 */
import path from 'node:path';
import Fastify from 'fastify';
import { registerService, type Handler } from 'dataapi/runtime/server';
import type { ServiceModel } from 'dataapi/model';
import { loadSpec, type LoadedSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

export interface ServedFixture {
  model: ServiceModel;
  url: string;
  close(): Promise<void>;
}

export const echo: Handler = async ({ body, query, path: params, headers }) => ({
  body,
  query,
  path: params,
  cookie: headers.cookie,
});

/** `fixture`: a file under test/fixtures, or a model already built. */
export async function serveFixture(
  fixture: string | ServiceModel,
  handlers?: Record<string, Handler>,
): Promise<ServedFixture> {
  const model =
    typeof fixture === 'string' ? normalise(await loadSpec(path.join(FIXTURES, fixture))) : fixture;
  const app = Fastify();
  await registerService(app, {
    model,
    handlers: handlers ?? Object.fromEntries(model.operations.map((o) => [o.id, echo])),
    rateLimit: false,
    insecureAnyKey: true,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { model, url, close: () => app.close() };
}

/** The model of a description written in the test itself (no file, so no lines to locate). */
export function modelOf(document: LoadedSpec['document']): ServiceModel {
  return normalise({ file: 'inline.json', locate: () => undefined, document });
}

/** serveFixture of a description written in the test itself. */
export function serveDocument(
  document: LoadedSpec['document'],
  handlers?: Record<string, Handler>,
): Promise<ServedFixture> {
  return serveFixture(modelOf(document), handlers);
}

/** GET `path` of a served fixture, or POST `body` as JSON to it: the status and the JSON answer. */
export async function callJson(
  base: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, any> }> {
  const init: RequestInit =
    body === undefined
      ? {}
      : {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        };
  const res = await fetch(base + path, init);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
