/**
 * A deployment that misbehaves on purpose, for the proxy's fault tests: a plain node:http (or
 * https) server answering GET /Weather/AirQuality (a documented operation) in the way its `case`
 * query value asks: whole, reset midway, never, compressed and chunked, or upgraded to a
 * WebSocket-like echo, or (`stale`) closing a kept-alive connection as it is reused. It keeps what it sent (header pairs and body bytes) by case, and tells
 * when a request of a case arrived and when its connection closed.
 */
import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { model } from '../../generated/model.ts';

export const AIR = '/Weather/AirQuality';

/** The description's own example of the operation's answer (valid by construction). */
export function airExample(): Record<string, any> {
  const op = model.operations.find((o) => o.id === 'getAirQuality')!;
  return structuredClone(
    op.responses.find((r) => r.status === '200')!.examples[0]!.value,
  ) as Record<string, any>;
}

export interface Sent {
  headers: [string, string][];
  body: Buffer;
}

export interface FaultUpstream {
  url: string;
  sent: Map<string, Sent>;
  /** Resolves when a request of the case has arrived. */
  arrived(c: string): Promise<void>;
  /** Resolves when the connection of that request has closed. */
  closed(c: string): Promise<void>;
  /** Kept-alive connections cut as a `stale` request arrived on them. */
  staleCuts(): number;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
export const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export async function startFaultUpstream(tls?: {
  key: Buffer;
  cert: Buffer;
}): Promise<FaultUpstream> {
  const sent = new Map<string, Sent>();
  const events = new Map<string, { fire(): void; seen: Promise<void> }>();
  const event = (name: string) => {
    let e = events.get(name);
    if (!e) {
      let fire!: () => void;
      const seen = new Promise<void>((r) => (fire = r));
      events.set(name, (e = { fire, seen }));
    }
    return e;
  };
  const answer = (
    c: string,
    res: ServerResponse,
    status: number,
    headers: [string, string][],
    parts: Buffer[],
  ) => {
    sent.set(c, { headers, body: Buffer.concat(parts) });
    res.writeHead(status, headers.flat());
    for (const p of parts) res.write(p);
    res.end();
  };
  // Connections that served a `stale` answer: the next request on one finds it closed.
  const served = new WeakSet<object>();
  let staleCuts = 0;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const c = url.searchParams.get('case') ?? 'ok';
    if (c === 'stale') {
      if (served.has(req.socket)) {
        staleCuts++;
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
    }
    event(`arrived:${c}`).fire();
    if (c === 'hang') req.socket.once('close', () => event(`closed:${c}`).fire());
    const body = Buffer.from(JSON.stringify(airExample()));
    if (url.pathname !== AIR) {
      res.writeHead(404).end();
      return;
    }
    switch (c) {
      case 'reset': {
        // The whole length announced, half sent, then the connection cut.
        res.writeHead(200, ['content-type', JSON_TYPE, 'content-length', String(body.length)]);
        res.write(body.subarray(0, body.length >> 1), () => res.socket?.destroy());
        sent.set(c, { headers: [], body: body.subarray(0, body.length >> 1) });
        return;
      }
      case 'hang':
        return; // never answers
      case 'big': {
        // A valid answer past the 1 MiB judging limit: its list padded with copies of its item.
        const big = airExample();
        const item = big.Data[0];
        const copies = Math.ceil((1.5 * 1024 * 1024) / JSON.stringify(item).length);
        for (let i = 0; i < copies; i++) big.Data.push(item);
        big.DataStatus.DataTotalCount = big.Data.length;
        const bytes = Buffer.from(JSON.stringify(big));
        return answer(
          c,
          res,
          200,
          [
            ['content-type', JSON_TYPE],
            ['content-length', String(bytes.length)],
          ],
          [bytes],
        );
      }
      case 'gzip-chunked': {
        const z = gzipSync(body);
        const third = Math.ceil(z.length / 3);
        return answer(
          c,
          res,
          200,
          [
            ['content-type', JSON_TYPE],
            ['content-encoding', 'gzip'],
          ],
          [z.subarray(0, third), z.subarray(third, 2 * third), z.subarray(2 * third)],
        );
      }
      case 'br-wrong-code': {
        const wrong = airExample();
        wrong.DataStatus.StatusCode = 999;
        const z = brotliCompressSync(Buffer.from(JSON.stringify(wrong)));
        return answer(
          c,
          res,
          200,
          [
            ['content-type', JSON_TYPE],
            ['content-encoding', 'br'],
            ['content-length', String(z.length)],
          ],
          [z],
        );
      }
      default:
        return answer(
          c,
          res,
          200,
          [
            ['content-type', JSON_TYPE],
            ['content-length', String(body.length)],
            ['x-trace', `t-${c}`],
          ],
          [body],
        );
    }
  };
  const server = tls ? https.createServer(tls, handle) : http.createServer(handle);
  // A WebSocket-like upgrade: the 101 head, then every byte echoed back.
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    const headers: [string, string][] = [
      ['Upgrade', 'websocket'],
      ['Connection', 'Upgrade'],
      ['Sec-WebSocket-Accept', accept],
    ];
    sent.set('ws', { headers, body: Buffer.alloc(0) });
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`,
    );
    if (head.length) socket.write(head);
    socket.pipe(socket);
    event('arrived:ws').fire();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', 4096, () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    sent,
    arrived: (c) => event(`arrived:${c}`).seen,
    closed: (c) => event(`closed:${c}`).seen,
    staleCuts: () => staleCuts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The header pairs that reach a client, hop-by-hop ones aside (RFC 9110 §7.6.1: each hop has its
 * own) and the Date that node:http adds to every answer (not in `sent`).
 */
export function endToEnd(pairs: [string, string][]): string[] {
  const hop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
  return pairs
    .filter(([k]) => !hop.has(k.toLowerCase()))
    .map(([k, v]) => `${k.toLowerCase()}: ${v}`)
    .sort();
}
