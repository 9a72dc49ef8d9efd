/**
 * Routing and the 405 answer agree (issue 26, class 5): the Allow header names the methods of the
 * templates the router would route to (a `.pgn` suffix beside the same template without one), a
 * percent-encoded path finds its declared path, and an explicit HEAD operation is served, not the
 * automatic HEAD of its path's GET.
 */
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerService, type Handler } from 'dataapi/runtime/server';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

let app: FastifyInstance;
let url: string;
const called: string[] = [];
beforeAll(async () => {
  const model = normalise(await loadSpec(path.join(FIXTURES, 'generality/routing.yaml')));
  const handler =
    (id: string): Handler =>
    async () => {
      called.push(id);
      return id === 'getGamePgn'
        ? '1. e4 e5'
        : id === 'headFile' || id === 'deleteGame'
          ? undefined
          : { id };
    };
  app = Fastify();
  await registerService(app, {
    model,
    handlers: Object.fromEntries(model.operations.map((o) => [o.id, handler(o.id)])),
    rateLimit: false,
    insecureAnyKey: true,
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const send = async (method: string, p: string) => {
  const res = await fetch(url + p, { method });
  await res.arrayBuffer();
  return { status: res.status, allow: res.headers.get('allow') };
};

describe('405 and routing', () => {
  it('name the methods of the template the router picks', async () => {
    called.length = 0;
    expect((await send('GET', '/games/ann/7.pgn')).status).toBe(200);
    // DELETE of `/games/{user}/{id}` routes here too (id "7.pgn"): Allow must say so.
    expect((await send('DELETE', '/games/ann/7.pgn')).status).toBe(204);
    expect(called).toEqual(['getGamePgn', 'deleteGame']);
    expect(await send('PATCH', '/games/ann/7.pgn')).toEqual({
      status: 405,
      allow: 'GET, DELETE, PUT',
    });
    expect(await send('POST', '/games/ann/7')).toEqual({ status: 405, allow: 'GET, DELETE' });
  });

  it('match a percent-encoded path as the router does', async () => {
    expect((await send('GET', '/caf%C3%A9/menu')).status).toBe(200);
    expect(await send('POST', '/caf%C3%A9/menu')).toEqual({ status: 405, allow: 'GET' });
  });

  it('serve an explicit HEAD operation, not the automatic HEAD of the GET', async () => {
    called.length = 0;
    expect((await send('HEAD', '/files/a.txt')).status).toBe(204);
    expect(called).toEqual(['headFile']);
  });

  it("answer HEAD on a GET's route as the GET, without a body", async () => {
    called.length = 0;
    const get = await fetch(`${url}/games/ann/7`);
    const body = await get.text();
    const head = await fetch(`${url}/games/ann/7`, { method: 'HEAD' });
    expect(await head.text()).toBe('');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(called).toEqual(['getGame', 'getGame']);
    // A HEAD no GET answers: the same 404 and 405 (with the same Allow) as any other method.
    expect((await send('HEAD', '/nowhere')).status).toBe(404);
    expect(await send('HEAD', '/games/ann/7/x')).toEqual(await send('GET', '/games/ann/7/x'));
  });
});
