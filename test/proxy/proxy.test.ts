/**
 * The validation proxy against a real deployment with planted violations, driven by the
 * generated client over real HTTP: each violation is reported once and nothing else is; the
 * client receives the deployment's bytes; an upload and an event stream pass through intact; a
 * deployment that does not answer gives a 502 in the operation's envelope and a finding.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveClient, KEY, runTestProxy } from './harness.ts';
import { startUpstream, type Upstream } from './upstream.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

describe('dataapi proxy', () => {
  it('reports each planted violation once, nothing else, and passes the bytes through', async () => {
    const proxy = await runTestProxy(upstream.url);
    const { bodies, outcomes } = await driveClient(proxy.url);
    expect(outcomes.airQuality).toBe('ok');
    const code = await proxy.stop();
    expect(code).toBe(1);

    const lines = proxy.findings();
    const byOp = lines.map((l) => /^✗ (\S+) (\S+):/.exec(l)?.slice(1, 3).join(' '));
    expect(byOp.sort()).toEqual(
      [
        'getFundBasicInfo headers',
        'getFundOpenRealtime status',
        'getGlobalUniversityRanking envelope',
        'getIpLocation business-code',
        'getSslCertInfo schema',
      ].sort(),
    );
    expect(lines.find((l) => l.includes('getIpLocation'))).toContain('code 999');
    expect(lines.find((l) => l.includes('getSslCertInfo'))).toContain('statusDescription');
    expect(lines.find((l) => l.includes('getFundBasicInfo'))).toContain('Retry-After');
    expect(lines.find((l) => l.includes('getFundOpenRealtime'))).toContain('HTTP 418');
    // The key is sent in every request (query appkey) and appears in no output.
    expect(proxy.output()).not.toContain(KEY);
    expect(lines.every((l) => l.includes('appkey=***'))).toBe(true);

    // The client saw exactly the bytes the deployment sent.
    for (const [p, sent] of upstream.sent) {
      if (!bodies.has(p)) continue;
      expect(bodies.get(p)!.equals(sent), p).toBe(true);
    }
    expect(bodies.size).toBe(6);

    // The same findings in the reports, with the coverage the traffic gave.
    const json = JSON.parse(
      await readFile(path.join(proxy.dir, 'reports', 'contract-results.json'), 'utf8'),
    );
    const failed = json.results
      .filter((r: { status: string }) => r.status === 'failed')
      .map((r: { operation: string; check: string }) => `${r.operation} ${r.check}`);
    expect(failed.sort()).toEqual(byOp.sort());
    expect(json.coverage.operations).toEqual(
      [
        'getAirQuality',
        'getFundBasicInfo',
        'getFundOpenRealtime',
        'getGlobalUniversityRanking',
        'getIpLocation',
        'getSslCertInfo',
      ].sort(),
    );
    expect(json.coverageReport.operations.missed).toContain('getFundOpenHistory');
    const junit = await readFile(path.join(proxy.dir, 'reports', 'contract-junit.xml'), 'utf8');
    expect(junit).toContain('getIpLocation');
    for (const f of ['contract-junit.xml', 'contract-report.html', 'contract-results.json'])
      expect(await readFile(path.join(proxy.dir, 'reports', f), 'utf8')).not.toContain(KEY);
  });

  it('passes an upload and an event stream through intact, as they come', async () => {
    const proxy = await runTestProxy(upstream.url);
    try {
      // A multipart body with every byte value in its file part, sent as prepared bytes.
      const file = Buffer.from(Array.from({ length: 256 * 64 }, (_, i) => i % 256));
      const boundary = 'dataapi-proxy-test-boundary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const up = await fetch(`${proxy.url}/ai/knowledge-bases/kb_1/documents?appkey=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect(up.status).toBe(200);
      await up.arrayBuffer();
      expect(upstream.received.get('/ai/knowledge-bases/kb_1/documents')!.equals(body)).toBe(true);

      // The first event arrives while the deployment still holds the second back.
      const res = await fetch(`${proxy.url}/events`);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(Buffer.from(first.value!).toString()).toBe('id: 1\ndata: {"n":1}\n\n');
      upstream.release();
      const rest: Buffer[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read())
        rest.push(Buffer.from(r.value));
      expect(Buffer.concat(rest).toString()).toBe('id: 2\ndata: {"n":2,"text":"终"}\n\n');
      // A path the description does not document, refused with 404: the right answer, no finding.
      const unknown = await fetch(`${proxy.url}/no-such-route`);
      expect(unknown.status).toBe(404);
      await unknown.arrayBuffer();
    } finally {
      await proxy.stop();
    }
    // The upload conforms; the event stream's path is not in the description but was answered:
    // the description is silent about it (a warning, `!`), the target not wrong.
    expect(proxy.findings()).toEqual([
      expect.stringMatching(
        /^! undocumented: GET .*\/events -> HTTP 200: expected a path the description documents/,
      ),
    ]);
  });

  it('says when the key is missing or sent the wrong way, and passes large bodies whole', async () => {
    const proxy = await runTestProxy(upstream.url);
    try {
      const noKey = await fetch(`${proxy.url}/Weather/AirQuality?location=x`);
      expect(noKey.status).toBe(200);
      await noKey.arrayBuffer();
      const inHeader = await fetch(`${proxy.url}/Weather/AirQuality?location=x`, {
        headers: { 'x-service-appkey': KEY },
      });
      await inHeader.arrayBuffer();
      const preflight = await fetch(`${proxy.url}/Weather/AirQuality`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      });
      await preflight.arrayBuffer();
      const wrongMethod = await fetch(`${proxy.url}/Weather/AirQuality?appkey=${KEY}`, {
        method: 'DELETE',
      });
      await wrongMethod.arrayBuffer();
      const big = Buffer.from(
        await (await fetch(`${proxy.url}/fund/open/history?appkey=${KEY}`)).arrayBuffer(),
      );
      expect(big.equals(upstream.sent.get('/fund/open/history')!)).toBe(true);
    } finally {
      await proxy.stop();
    }
    const lines = proxy.findings();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /^! undocumented: DELETE .* -> HTTP \d+: expected a method the path documents \(GET\)/,
    );
    expect(lines[0]).toMatch(
      /^✗ getAirQuality auth: .*expected HTTP 401, business code 104, got HTTP 200/,
    );
    expect(lines[1]).toMatch(
      /^✗ getAirQuality auth: .*expected the key in query parameter appkey, got the key in header X-SERVICE-APPKEY/,
    );
    expect(proxy.output()).not.toContain(KEY);
  });

  it('answers 502 in the envelope when the deployment is down, with one finding', async () => {
    const dead = await startUpstream();
    await dead.close();
    const proxy = await runTestProxy(dead.url);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${proxy.url}/Weather/AirQuality?location=x&appkey=${KEY}`);
        expect(res.status).toBe(502);
        const body = await res.json();
        expect(body.DataStatus.StatusCode).toBe(110);
      }
    } finally {
      await proxy.stop();
    }
    const lines = proxy.findings();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^✗ getAirQuality server-errors: .*no answer \(ECONNREFUSED/);
    expect(proxy.output()).not.toContain(KEY);
  });
});
