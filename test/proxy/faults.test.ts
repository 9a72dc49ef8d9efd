/**
 * The proxy under faults, each against a planted upstream (fault-upstream.ts): what the client
 * gets is what the deployment sent (hashes of bodies and end-to-end header sets compared on both
 * sides), and what the proxy reports is exactly the fault, nothing else.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractRunResult } from '../../contract-tests/results.ts';
import { KEY, runTestProxy, type ProxyHandle } from './harness.ts';
import { AIR, endToEnd, sha, startFaultUpstream, type FaultUpstream } from './fault-upstream.ts';

const TLS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/tls');

interface Got {
  status?: number;
  headers: [string, string][];
  body: Buffer;
  /** The answer broke off (the socket closed before its end). */
  broken: boolean;
  /** The client's error, when the request failed (for the assertion's message). */
  error?: string;
}

/** GET through the proxy with node:http (which undoes no content-encoding): the bytes as sent. */
function get(base: string, c: string, agent?: http.Agent): Promise<Got> {
  return new Promise((resolve) => {
    const got: Got = { headers: [], body: Buffer.alloc(0), broken: false };
    const chunks: Buffer[] = [];
    const req = http.get(`${base}${AIR}?location=x&appkey=${KEY}&case=${c}`, { agent }, (res) => {
      got.status = res.statusCode;
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        got.headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ ...got, body: Buffer.concat(chunks) }));
      res.on('aborted', () => (got.broken = true));
      res.on('error', () => resolve({ ...got, body: Buffer.concat(chunks), broken: true }));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({
        ...got,
        body: Buffer.concat(chunks),
        broken: true,
        error: err.code ?? err.message,
      }),
    );
  });
}

async function stopAndRead(proxy: ProxyHandle): Promise<ContractRunResult> {
  await proxy.stop();
  return JSON.parse(
    await readFile(path.join(proxy.dir, 'reports/contract-results.json'), 'utf8'),
  ) as ContractRunResult;
}

let upstream: FaultUpstream;
beforeAll(async () => {
  upstream = await startFaultUpstream();
});
afterAll(() => upstream.close());

describe('dataapi proxy under faults', () => {
  it('passes a reset midway on as a reset, and reports the exchange as incomplete only', async () => {
    const proxy = await runTestProxy(upstream.url);
    const got = await get(proxy.url, 'reset');
    const result = await stopAndRead(proxy);
    expect(got.broken).toBe(true);
    // What arrived before the cut is what the deployment sent before it.
    expect(sha(got.body)).toBe(sha(upstream.sent.get('reset')!.body));
    expect(result.traffic).toMatchObject({ exchanges: 1, judged: 1, incomplete: 1 });
    expect(proxy.findings()).toEqual([]);
  });

  it('asks again on a new connection when a kept-alive one was closed as it was reused', async () => {
    const proxy = await runTestProxy(upstream.url);
    const first = await get(proxy.url, 'stale');
    const second = await get(proxy.url, 'stale');
    await proxy.stop();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(sha(second.body)).toBe(sha(upstream.sent.get('stale')!.body));
    expect(upstream.staleCuts()).toBe(1);
    expect(proxy.findings()).toEqual([]);
  });

  it('cancels the request to the deployment when the client hangs up', async () => {
    const proxy = await runTestProxy(upstream.url);
    try {
      const req = http.get(`${proxy.url}${AIR}?location=x&appkey=${KEY}&case=hang`);
      req.on('error', () => undefined);
      await upstream.arrived('hang');
      req.destroy();
      // The deployment's side of the connection closes: the proxy gave up on it.
      await upstream.closed('hang');
    } finally {
      await proxy.stop();
    }
    expect(proxy.findings()).toEqual([]);
  });

  it('answers 504 in the envelope when the deployment is slower than --timeout', async () => {
    const slow = await startFaultUpstream();
    const proxy = await runTestProxy(slow.url, { extra: { timeoutMs: 300 } });
    const got = await get(proxy.url, 'hang');
    const result = await stopAndRead(proxy);
    await slow.closed('hang');
    await slow.close();
    expect(got.status).toBe(504);
    const body = JSON.parse(got.body.toString()) as { DataStatus: { StatusCode: number } };
    expect(body.DataStatus.StatusCode).toEqual(expect.any(Number));
    expect(proxy.findings()).toHaveLength(1);
    expect(proxy.findings()[0]).toMatch(/server-errors: .*no answer \(ETIMEDOUT.*HTTP 504/);
    expect(result.summary.failed).toBe(1);
  });

  it('streams a body over the judging limit whole and counts it as judged on its head only', async () => {
    const proxy = await runTestProxy(upstream.url);
    const got = await get(proxy.url, 'big');
    const result = await stopAndRead(proxy);
    expect(got.body.length).toBeGreaterThan(1024 * 1024);
    expect(sha(got.body)).toBe(sha(upstream.sent.get('big')!.body));
    expect(endToEnd(got.headers)).toEqual(endToEnd(upstream.sent.get('big')!.headers));
    expect(result.traffic).toMatchObject({ exchanges: 1, judged: 1, overSize: 1 });
    expect(proxy.findings()).toEqual([]);
  });

  it('passes gzip and brotli bodies on compressed (chunked too) and judges them decompressed', async () => {
    const proxy = await runTestProxy(upstream.url);
    const gz = await get(proxy.url, 'gzip-chunked');
    const br = await get(proxy.url, 'br-wrong-code');
    await proxy.stop();
    for (const [got, c] of [
      [gz, 'gzip-chunked'],
      [br, 'br-wrong-code'],
    ] as const) {
      expect(sha(got.body), c).toBe(sha(upstream.sent.get(c)!.body));
      expect(endToEnd(got.headers), c).toEqual(endToEnd(upstream.sent.get(c)!.headers));
    }
    expect(gz.headers).toContainEqual(['Transfer-Encoding', 'chunked']);
    // The gzip body is valid once decompressed (read compressed, it would not even be JSON); the
    // brotli one carries a wrong business code, which only reading it decompressed can show.
    expect(proxy.findings()).toHaveLength(1);
    expect(proxy.findings()[0]).toMatch(/^✗ getAirQuality business-code: .*case=br-wrong-code/);
  });

  it('carries 1,000 concurrent keep-alive connections, each answered with the bytes sent', async () => {
    const proxy = await runTestProxy(upstream.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1000, maxFreeSockets: 1000 });
    const sockets = new Set<unknown>();
    agent.on('free', (s) => sockets.add(s));
    try {
      const want = upstream.sent.get('ok') ?? (await get(upstream.url, 'ok'));
      const round = () =>
        Promise.all(Array.from({ length: 1000 }, () => get(proxy.url, 'ok', agent)));
      const first = await round();
      const afterFirst = sockets.size;
      const second = await round();
      for (const got of [...first, ...second]) {
        expect(got.status, got.error).toBe(200);
        expect(sha(got.body)).toBe(sha(want.body));
      }
      // The second round went over the first round's connections: none was opened anew.
      expect(afterFirst).toBe(1000);
      expect(sockets.size).toBe(1000);
    } finally {
      agent.destroy();
    }
    const result = await stopAndRead(proxy);
    expect(result.traffic!.exchanges).toBe(2000);
    expect(result.traffic!.judged + result.traffic!.overloaded).toBe(2000);
    expect(proxy.findings()).toEqual([]);
  });

  it('passes a WebSocket upgrade through untouched, both ways', async () => {
    const proxy = await runTestProxy(upstream.url);
    try {
      const key = Buffer.from('dataapi-ws-key-1').toString('base64');
      const { head, socket } = await new Promise<{
        head: http.IncomingMessage;
        socket: import('node:net').Socket;
      }>((resolve, reject) => {
        const req = http.request(`${proxy.url}/socket`, {
          headers: {
            Connection: 'Upgrade',
            Upgrade: 'websocket',
            'Sec-WebSocket-Key': key,
            'Sec-WebSocket-Version': '13',
          },
        });
        req.on('upgrade', (res, s) => resolve({ head: res, socket: s }));
        req.on('error', reject);
        req.end();
      });
      expect(head.statusCode).toBe(101);
      const pairs: [string, string][] = [];
      for (let i = 0; i < head.rawHeaders.length; i += 2)
        pairs.push([head.rawHeaders[i]!, head.rawHeaders[i + 1]!]);
      expect(pairs).toEqual(upstream.sent.get('ws')!.headers);
      // Frames are opaque bytes to the proxy: every byte value, echoed back as it went.
      const frame = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));
      const echoed: Buffer[] = [];
      let length = 0;
      await new Promise<void>((resolve) => {
        socket.on('data', (d: Buffer) => {
          echoed.push(d);
          length += d.length;
          if (length >= frame.length) resolve();
        });
        socket.write(frame);
      });
      expect(sha(Buffer.concat(echoed))).toBe(sha(frame));
      socket.destroy();
    } finally {
      await proxy.stop();
    }
    expect(proxy.findings()).toEqual([]);
  });
});

describe('dataapi proxy in front of https', () => {
  let secure: FaultUpstream;
  let ca: Buffer;
  beforeAll(async () => {
    ca = await readFile(path.join(TLS, 'ca.pem'));
    secure = await startFaultUpstream({
      key: await readFile(path.join(TLS, 'server.key')),
      cert: await readFile(path.join(TLS, 'server.pem')),
    });
  });
  afterAll(() => secure.close());

  it('trusts a private CA given with --ca, and refuses the certificate without it', async () => {
    const trusted = await runTestProxy(secure.url, { extra: { ca } });
    const ok = await get(trusted.url, 'ok');
    await trusted.stop();
    expect(ok.status).toBe(200);
    expect(sha(ok.body)).toBe(sha(secure.sent.get('ok')!.body));
    expect(trusted.findings()).toEqual([]);

    const untrusted = await runTestProxy(secure.url);
    const refused = await get(untrusted.url, 'ok');
    await untrusted.stop();
    expect(refused.status).toBe(502);
    expect(untrusted.findings()).toHaveLength(1);
    expect(untrusted.findings()[0]).toMatch(/server-errors: .*no answer \(.*certificate/i);
  });

  it('with --insecure, connects without verifying and says so loudly', async () => {
    const proxy = await runTestProxy(secure.url, { extra: { insecure: true } });
    const got = await get(proxy.url, 'ok');
    await proxy.stop();
    expect(got.status).toBe(200);
    expect(proxy.output()).toMatch(
      /WARNING --insecure: the certificate of https:\/\/127\.0\.0\.1:\d+ is NOT verified/,
    );
  });
});
