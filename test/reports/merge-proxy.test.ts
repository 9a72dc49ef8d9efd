/**
 * `dataapi report merge` on proxies behind one load balancer: two `dataapi proxy` instances in
 * front of a deployment with planted violations, each seeing part of the traffic, merged by the
 * built `dataapi`, found what one proxy seeing all of that traffic found: the same failures,
 * warnings and coverage.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeAfterFile } from '../cleanup.ts';
import { reportDir } from '../contract/harness.ts';
import { driveCalls, KEY, runTestProxy, type CallName } from '../proxy/harness.ts';
import { startUpstream, type Upstream } from '../proxy/upstream.ts';
import { findingsOf, readReport, reportMerge } from './merge-findings.ts';

// What the balancer sent each way: getIpLocation (a planted wrong business code) and
// getAirQuality (conforming) reach both proxies.
const FIRST: CallName[] = ['airQuality', 'ip', 'ssl', 'ranking'];
const SECOND: CallName[] = ['ip', 'realtime', 'basicInfo', 'airQuality'];
// Methods the paths do not document, answered by the deployment: a warning about the description
// each (both at /paths), the DELETE seen by both proxies.
const FIRST_WRONG = ['DELETE /Weather/AirQuality', 'POST /v2/location/ip'];
const SECOND_WRONG = ['DELETE /Weather/AirQuality'];

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

/** A proxy in front of the upstream that sees these calls; its report folder. */
async function proxySeeing(
  calls: CallName[],
  wrongMethods: string[],
): Promise<{ dir: string; code: number }> {
  const proxy = await runTestProxy(upstream.url);
  removeAfterFile(proxy.dir);
  await driveCalls(proxy.url, calls);
  for (const line of wrongMethods) {
    const [method, route] = line.split(' ');
    const res = await fetch(`${proxy.url}${route}?appkey=${KEY}`, { method });
    await res.arrayBuffer();
  }
  const code = await proxy.stop();
  return { dir: path.join(proxy.dir, 'reports'), code };
}

describe('dataapi report merge: two proxies', () => {
  it('merged, the two found what one proxy seeing all the traffic found', async () => {
    const first = await proxySeeing(FIRST, FIRST_WRONG);
    const second = await proxySeeing(SECOND, SECOND_WRONG);
    const all = await proxySeeing([...FIRST, ...SECOND], [...FIRST_WRONG, ...SECOND_WRONG]);
    expect([first.code, second.code, all.code]).toEqual([1, 1, 1]);

    const out = reportDir('merge-proxies');
    const r = await reportMerge([first.dir, second.dir, '--report-dir', out]);
    expect(r.stderr).toBe('');
    // A failed check anywhere fails the merged run.
    expect(r.code).toBe(1);
    const merged = await readReport(out);
    const alone = await readReport(all.dir);
    expect(findingsOf(merged)).toEqual(findingsOf(alone));
    // The DELETE both proxies saw is one warning; the POST only the first saw, another.
    expect(merged.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^DELETE \/Weather\/AirQuality answered HTTP 200/),
      expect.stringMatching(/^POST \/v2\/location\/ip answered HTTP 200/),
    ]);
    expect(merged.summary.failed).toBeGreaterThan(0);
    // Failed in both proxies, one failure of the merged run.
    const ip = merged.results.filter(
      (x) => x.operation === 'getIpLocation' && x.check === 'business-code',
    );
    expect(ip.map((x) => x.status)).toEqual(['failed']);
    for (const text of [JSON.stringify(merged), r.stdout]) expect(text).not.toContain(KEY);

    // A proxy's folder given twice is the same run twice, refused.
    const twice = await reportMerge([first.dir, second.dir, first.dir]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(
      `dataapi report merge: the same run twice: ${first.dir} and ${first.dir}\n`,
    );
  });
});
