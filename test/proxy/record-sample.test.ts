/**
 * A judging thread sends back only the exchange records the reports keep (record-sample.ts): the
 * reports are those of judging on the forwarding thread, which gets every record, down to which
 * exchanges are kept: the first few, each one adding coverage however late, every failing one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractRunResult } from '../../contract-tests/results.ts';
import { SAMPLE } from '../../contract-tests/proxy/record-sample.ts';
import { KEY, runTestProxy } from './harness.ts';
import { PLANTED, startUpstream, type Upstream } from './upstream.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

/** Past the sample, a request with a parameter not seen before, then more of the same. */
const traffic = [
  ...Array.from({ length: SAMPLE + 10 }, (_, i) => `/Weather/AirQuality?city=c${i}&appkey=${KEY}`),
  `/Weather/AirQuality?city=late&lang=en&appkey=${KEY}`,
  ...Array.from({ length: 5 }, (_, i) => `/Weather/AirQuality?city=d${i}&appkey=${KEY}`),
  ...Array.from(
    { length: SAMPLE + 5 },
    (_, i) => `${PLANTED.wrongCode}?ip=10.0.0.${i}&appkey=${KEY}`,
  ),
];

/** The kept records (without their times) per operation and check. */
async function keptRecords(threads: number) {
  const proxy = await runTestProxy(upstream.url, { extra: { judging: { threads } } });
  for (const p of traffic) await (await fetch(proxy.url + p)).arrayBuffer();
  await proxy.stop();
  const result = JSON.parse(
    await readFile(path.join(proxy.dir, 'reports/contract-results.json'), 'utf8'),
  ) as ContractRunResult;
  return result.results.map((r) => ({
    operation: r.operation,
    check: r.check,
    status: r.status,
    exchanges: r.exchanges.map(({ durationMs: _d, ...e }) => e),
  }));
}

describe('records a judging thread sends back', () => {
  it('are those the reports keep when every record is sent', async () => {
    const inline = await keptRecords(0);
    const threaded = await keptRecords(1);
    expect(threaded).toEqual(inline);
    const air = threaded.find((r) => r.operation === 'getAirQuality')!.exchanges;
    // The first SAMPLE, and the late one that adds a parameter.
    expect(air).toHaveLength(SAMPLE + 1);
    expect(air.at(-1)!.request.url).toContain('city=late&lang=en');
    // Every failing exchange, past the sample.
    const failing = threaded.find((r) => r.operation === 'getIpLocation' && r.status === 'failed');
    expect(failing?.exchanges).toHaveLength(SAMPLE + 5);
  });
});
