/**
 * The contract transport on node:http sends and reads as Node's fetch did (the checks, the
 * negatives that leave fetch's own headers out, and the saved failures, which replay with fetch,
 * all count on it): fetch's default headers, lengths, a string body's type, redirects not
 * followed, compressed answers decoded, repeated headers joined, one timeout over the whole body.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWire } from '../../contract-tests/wire-request.ts';

let app: FastifyInstance;
let base: string;

const ANSWER = { ok: 'été' };
const ENCODERS: Record<string, (b: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

beforeAll(async () => {
  // forceCloseConnections: the trickling answer's socket is closed by close(), not waited for.
  app = Fastify({ forceCloseConnections: true });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.all('/echo', async (req) => ({ headers: req.headers, body: req.body ?? null }));
  app.get('/packed/:coding', async (req, reply) => {
    const { coding } = req.params as { coding: string };
    const json = Buffer.from(JSON.stringify(ANSWER));
    const packed = coding === 'deflate-raw' ? deflateRawSync(json) : ENCODERS[coding]!(json);
    return reply
      .header('content-type', 'application/json')
      .header('content-encoding', coding === 'deflate-raw' ? 'deflate' : coding)
      .send(packed);
  });
  app.get('/moved', async (_req, reply) => reply.redirect('/echo', 302));
  app.get('/repeated', async (_req, reply) => {
    reply.raw.setHeader('x-many', ['a', 'b']);
    reply.raw.setHeader('set-cookie', ['one=1', 'two=2']);
    return reply.send('\uFEFFtext');
  });
  app.get('/trickle', (_req, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'application/json' });
    reply.raw.write('{"never":'); // and never the rest
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(() => app.close());

const echo = async (method: string, headers: Record<string, string>, body?: string) => {
  const res = await sendWire(`${base}/echo`, {
    method,
    headers,
    timeoutMs: 300_000,
    ...(body !== undefined ? { body } : {}),
  });
  return JSON.parse(res.text) as { headers: Record<string, string>; body: string | null };
};

describe('sendWire', () => {
  it("sends fetch's default headers unless the request sets them, and a body's length", async () => {
    const got = await echo(
      'post',
      { 'content-type': 'application/json', Accept: 'text/csv' },
      '{}',
    );
    expect(got.headers).toMatchObject({
      accept: 'text/csv',
      'accept-language': '*',
      'accept-encoding': 'gzip, deflate',
      'sec-fetch-mode': 'cors',
      'user-agent': 'node',
      'content-length': '2',
    });
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(got.body).toEqual({});
  });

  it('types a string body without a type as fetch does, and frames bodiless requests as it does', async () => {
    const text = await echo('put', {}, 'plain');
    expect(text.headers['content-type']).toBe('text/plain;charset=UTF-8');
    const post = await echo('post', {});
    expect(post.headers['content-length']).toBe('0');
    const del = await echo('delete', {});
    expect(del.headers['content-length']).toBeUndefined();
    expect(del.headers['transfer-encoding']).toBeUndefined();
  });

  it.each(['gzip', 'deflate', 'deflate-raw', 'br'])('decodes a %s answer', async (coding) => {
    const res = await sendWire(`${base}/packed/${coding}`, {
      method: 'GET',
      headers: {},
      timeoutMs: 300_000,
    });
    expect(JSON.parse(res.text)).toEqual(ANSWER);
    expect(res.headers['content-encoding']).toBe(coding === 'deflate-raw' ? 'deflate' : coding);
  });

  it('answers a redirect itself, not where it points', async () => {
    const res = await sendWire(`${base}/moved`, { method: 'GET', headers: {}, timeoutMs: 300_000 });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/echo');
  });

  it("joins repeated headers as fetch's Headers does, and reads UTF-8 without its BOM", async () => {
    const res = await sendWire(`${base}/repeated`, {
      method: 'GET',
      headers: {},
      timeoutMs: 300_000,
    });
    expect(res.headers['x-many']).toBe('a, b');
    expect(res.headers['set-cookie']).toBe('two=2');
    expect(res.text).toBe('text');
  });

  it('times out a body that never ends, as a TimeoutError', async () => {
    const sent = sendWire(`${base}/trickle`, { method: 'GET', headers: {}, timeoutMs: 300 });
    await expect(sent).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('rejects with the network error when nothing listens', async () => {
    const closed = Fastify();
    const url = await closed.listen({ port: 0, host: '127.0.0.1' });
    await closed.close();
    const sent = sendWire(`${url}/echo`, { method: 'GET', headers: {}, timeoutMs: 300_000 });
    await expect(sent).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('a kept-alive socket the server closes as the next request goes out', () => {
  // Answers the first request of each connection (kept alive), and resets the connection when a
  // second request arrives on it: the race of a server closing an idle socket.
  let server: Server;
  let url: string;
  const requests: number[] = [];
  beforeAll(async () => {
    server = createServer((socket: Socket) => {
      let seen = 0;
      socket.on('data', () => {
        seen += 1;
        requests.push(seen);
        if (seen > 1) return socket.resetAndDestroy();
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    url = `http://127.0.0.1:${port}/x`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('sends an idempotent request again on a new connection', async () => {
    requests.length = 0;
    for (const _ of [1, 2]) {
      const res = await sendWire(url, { method: 'GET', headers: {}, timeoutMs: 300_000 });
      expect([res.status, res.text]).toEqual([200, 'ok']);
    }
    // The second went out on the first connection (reset there), then on a fresh one.
    expect(requests).toEqual([1, 2, 1]);
  });

  it('does not send a POST twice: its error is the reset', async () => {
    // A GET first, so that a kept-alive socket with one answer behind it is free in the pool.
    await sendWire(url, { method: 'GET', headers: {}, timeoutMs: 300_000 });
    requests.length = 0;
    const post = sendWire(url, { method: 'POST', headers: {}, body: '{}', timeoutMs: 300_000 });
    await expect(post).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toEqual([2]); // once, on the reused socket; not again on a new one
  });
});
