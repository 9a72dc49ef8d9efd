/**
 * Server-sent events as an async iterator, and a plain JSON operation without an operationId,
 * through the runtime on the model of a small fixture description (the service itself declares
 * no streaming operation).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import type { ServiceModel } from 'dataapi/model';
import { createMethods, DataApiError, type SseStream } from 'dataapi/runtime/client';
import { SECRET, startServer } from './helpers.ts';

let model: ServiceModel;
let s: Awaited<ReturnType<typeof startServer>>;
let closedEarly: Promise<void>;
beforeAll(async () => {
  model = normalise(await loadSpec(path.resolve('test/client/fixtures/streaming.yaml')));
  let markClosed!: () => void;
  closedEarly = new Promise((r) => (markClosed = r));
  s = await startServer((app) => {
    app.get('/culture/fortune/stream', (req, reply) => {
      const q = req.query as { topic: string; appkey?: string };
      if (q.appkey !== SECRET) return reply.code(401).send({ message: 'wrong key' });
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      if (q.topic === 'endless') {
        const timer = setInterval(() => reply.raw.write('data: tick\n\n'), 10);
        req.raw.socket.on('close', () => {
          clearInterval(timer);
          markClosed();
        });
        return;
      }
      // Split mid-line across writes, CRLF and LF line ends, a comment, multi-line data, ids.
      const chunks = [
        ': keep-alive\n\nevent: start\r\ndata: {"step":1}\r\n\r\n',
        'id: 7\ndata: line one\nda',
        'ta: line two\n\nretry: 1500\nevent: end\ndata: {"done":true}\n\n',
      ];
      let i = 0;
      const next = () => {
        if (i < chunks.length) {
          reply.raw.write(chunks[i++]);
          setTimeout(next, 5);
        } else reply.raw.end();
      };
      next();
    });
    app.get('/pets', async (req) => [{ name: 'rex', url: req.url }]);
  });
});
afterAll(() => s.close());

describe('server-sent events', () => {
  it('iterates the events of a streaming operation', async () => {
    const client = createMethods(model, { baseUrl: s.baseUrl, appkey: SECRET });
    const stream = (await (client['streamFortune'] as (i: unknown) => Promise<SseStream>)({
      query: { topic: 'luck' },
    })) as SseStream;
    expect(stream.httpStatus).toBe(200);
    const events = [];
    for await (const e of stream) events.push(e);
    expect(events).toEqual([
      { event: 'start', data: '{"step":1}' },
      { event: 'message', data: 'line one\nline two', id: '7' },
      { event: 'end', data: '{"done":true}', id: '7', retry: 1500 },
    ]);
  });

  it('closes the connection when the loop stops early', async () => {
    const client = createMethods(model, { baseUrl: s.baseUrl, appkey: SECRET });
    const stream = await client.$runtime.stream('streamFortune', { query: { topic: 'endless' } });
    let n = 0;
    for await (const e of stream) {
      expect(e.data).toBe('tick');
      if (++n === 3) break;
    }
    await closedEarly;
    expect(n).toBe(3);
  });

  it('throws the HTTP error before any event', async () => {
    const client = createMethods(model, { baseUrl: s.baseUrl, appkey: 'wrong' });
    const e = await client.$runtime
      .stream('streamFortune', { query: { topic: 'luck' } })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DataApiError);
    expect([(e as DataApiError).httpStatus, (e as DataApiError).outcome]).toEqual([
      401,
      'wrong_key',
    ]);
  });
});

describe('a plain JSON operation without operationId', () => {
  it('returns the body as data, with array query parameters exploded', async () => {
    const op = model.operations.find((o) => o.path === '/pets')!;
    expect(op.operationId).toBeUndefined();
    const client = createMethods(model, { baseUrl: s.baseUrl });
    const r = await client.$runtime.call(op.id, { query: { tags: ['a', 'b c'] } });
    expect(r.data).toEqual([{ name: 'rex', url: '/pets?tags=a&tags=b%20c' }]);
    expect(r.status).toEqual({});
  });
});
