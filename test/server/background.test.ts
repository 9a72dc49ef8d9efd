/**
 * Work after listening (afterListening: the mock's example checks, the compiles of routes not yet
 * asked for) gives way to requests: no piece runs while a request is being answered, and every
 * piece still runs once it has been.
 */
import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterListening } from 'dataapi/runtime/server';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('work after listening', () => {
  it('waits while a request is answered, then does every piece', async () => {
    app = Fastify();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.get('/slow', async () => {
      await held;
      return { ok: true };
    });
    const done: number[] = [];
    let finished!: () => void;
    const all = new Promise<void>((resolve) => (finished = resolve));
    afterListening(app, [1, 2, 3], (n) => done.push(n), finished);
    await app.ready();
    const answer = app.inject({ url: '/slow' }); // in flight until released
    await turns(3);
    await app.listen({ port: 0, host: '127.0.0.1' });
    await turns(20);
    expect(done).toEqual([]);
    release();
    expect((await answer).statusCode).toBe(200);
    await all;
    expect(done).toEqual([1, 2, 3]);
  });

  it('begins after a quiet moment when no request comes', async () => {
    app = Fastify();
    const done: number[] = [];
    let finished!: () => void;
    const all = new Promise<void>((resolve) => (finished = resolve));
    afterListening(app, [1, 2], (n) => done.push(n), finished);
    await app.listen({ port: 0, host: '127.0.0.1' });
    await all;
    expect(done).toEqual([1, 2]);
  });
});
