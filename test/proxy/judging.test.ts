/**
 * Judging off the forwarding path: the judging threads give the findings judging on the
 * forwarding thread gives, and when they fall behind the traffic still flows whole while the
 * proxy counts, live and in every report, what went unjudged.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractRunResult } from '../../contract-tests/results.ts';
import { startProxy } from '../../contract-tests/proxy/server.ts';
import { model } from '../../generated/model.ts';
import { driveClient, KEY, runTestProxy } from './harness.ts';
import { sha } from './fault-upstream.ts';
import { startUpstream, type Upstream } from './upstream.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

/** The run result without what differs between two runs of the same traffic (times). */
function comparable(r: ContractRunResult) {
  return r.results.map((x) => ({
    operation: x.operation,
    variant: x.variant,
    check: x.check,
    status: x.status,
    message: x.message,
    errors: x.errors,
    exchanges: x.exchanges.map(({ durationMs: _d, ...e }) => e),
  }));
}

const resultsOf = async (dir: string) =>
  JSON.parse(
    await readFile(path.join(dir, 'reports/contract-results.json'), 'utf8'),
  ) as ContractRunResult;

describe('judging threads', () => {
  it('find exactly what judging on the forwarding thread finds', async () => {
    const runs = [];
    for (const threads of [0, 2]) {
      const proxy = await runTestProxy(upstream.url, { extra: { judging: { threads } } });
      await driveClient(proxy.url);
      await proxy.stop();
      runs.push({ findings: proxy.findings().sort(), result: await resultsOf(proxy.dir) });
    }
    const [inline, threaded] = runs as [(typeof runs)[0], (typeof runs)[0]];
    // The planted violations are there (a run that judged nothing would agree with itself too).
    expect(inline.findings.length).toBeGreaterThanOrEqual(5);
    expect(threaded.findings).toEqual(inline.findings);
    expect(comparable(threaded.result)).toEqual(comparable(inline.result));
    expect(threaded.result.traffic).toMatchObject({ overloaded: 0, failed: 0 });
  });

  it('drop judging, never traffic, when they fall behind, and say how much, live and in every report', async () => {
    const proxy = await runTestProxy(upstream.url, {
      reporters: ['console', 'junit', 'json', 'html'],
      extra: { judging: { threads: 1, maxQueued: 1 } },
    });
    const url = `${proxy.url}/Weather/AirQuality?location=x&appkey=${KEY}`;
    const answers = await Promise.all(
      Array.from({ length: 100 }, async () => {
        const res = await fetch(url);
        return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
      }),
    );
    await proxy.stop();
    const want = sha(upstream.sent.get('/Weather/AirQuality')!);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(sha(a.body)).toBe(want);
    }
    const { traffic } = await resultsOf(proxy.dir);
    expect(traffic!.exchanges).toBe(100);
    expect(traffic!.overloaded).toBeGreaterThan(0);
    expect(traffic!.judged + traffic!.overloaded).toBe(100);
    const note = `${traffic!.overloaded} of 100 exchanges not judged (${traffic!.overloaded} while the judges were behind)`;
    expect(proxy.output()).toContain(
      `the judges are behind: ${traffic!.overloaded} exchanges passed through unjudged so far`,
    );
    expect(proxy.output()).toContain(note);
    const reports = path.join(proxy.dir, 'reports');
    expect(await readFile(path.join(reports, 'contract-junit.xml'), 'utf8')).toContain(note);
    expect(await readFile(path.join(reports, 'contract-report.html'), 'utf8')).toContain(note);
    expect(proxy.findings()).toEqual([]);
  });
});

describe('the keys requests carry', () => {
  it('are learnt from the judges, and read on the forwarding thread when an exchange goes unjudged', async () => {
    const cases = [
      { judging: { threads: 1 }, judged: 1 },
      { judging: { threads: 1, maxQueued: 0 }, judged: 0 },
    ];
    for (const { judging, judged } of cases) {
      const proxy = await startProxy({
        model,
        upstream: upstream.url,
        port: 0,
        judging,
        onExchange: () => undefined,
      });
      const key = `learnt-key-${judged}-7f3a9c41`;
      const res = await fetch(`${proxy.url}/Weather/AirQuality?location=x&appkey=${key}`);
      await res.arrayBuffer();
      await proxy.close();
      expect(proxy.judging()).toMatchObject({ exchanges: 1, judged, overloaded: 1 - judged });
      expect(proxy.secrets()).toContain(key);
    }
  });
});
