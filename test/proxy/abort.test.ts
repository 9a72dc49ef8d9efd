/**
 * A client that hangs up midway (during its upload, or during an event stream) does not take the
 * proxy down: the next request is forwarded as usual.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEY, runTestProxy } from './harness.ts';
import { startUpstream, type Upstream } from './upstream.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

it('survives clients that hang up midway', async () => {
  const proxy = await runTestProxy(upstream.url);
  try {
    const url = new URL(`${proxy.url}/ai/knowledge-bases/kb_1/documents?appkey=${KEY}`);
    // Half an upload, then the socket is destroyed.
    await new Promise<void>((resolve) => {
      const req = request(url, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '100000' },
      });
      req.on('error', () => resolve());
      req.write('--x\r\nContent-Disposition: form-data; name="files"; filename="a"\r\n\r\n', () => {
        req.destroy();
        resolve();
      });
    });
    // An event stream left after its first event.
    const ac = new AbortController();
    const res = await fetch(`${proxy.url}/events`, { signal: ac.signal });
    const reader = res.body!.getReader();
    await reader.read();
    ac.abort();
    const next = await fetch(`${proxy.url}/Weather/AirQuality?location=x&appkey=${KEY}`);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  } finally {
    await proxy.stop();
  }
});
