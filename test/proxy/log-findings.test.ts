/**
 * The proxy's reports carry its findings as the judge wrote them (issue 47): the results file holds
 * each check's `findings` and the run's, written by the proxy itself, and every report reads them,
 * not the older fields (nor the upgrade of results written before `findings` existed). And a long
 * run full of failures keeps a bounded number of finding records per check (issue 49), while every
 * finding is still printed live and counted.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { KEPT_FINDINGS } from '../../contract-tests/proxy/kept-findings.ts';
import { startProxy } from '../../contract-tests/proxy/server.ts';
import { TrafficSession } from '../../contract-tests/proxy/session.ts';
import {
  buildReport,
  renderConsole,
  renderHtml,
  renderJUnit,
} from '../../contract-tests/reports/index.ts';
import type { CheckResult, ContractRunResult } from '../../contract-tests/results.ts';
import { removeAfterFile } from '../cleanup.ts';
import { driveClient, KEY, runTestProxy } from './harness.ts';
import { PLANTED, startUpstream, type Upstream } from './upstream.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

/** Every report the results render to (console, JUnit, HTML), as one text. */
const render = (r: ContractRunResult) => {
  const report = buildReport(r, model);
  return [renderConsole(report), renderJUnit(report), renderHtml(report)].join('\n----\n');
};

/** The results with the fields written before `findings` existed left empty. */
const withoutOlderFields = (r: ContractRunResult): ContractRunResult => ({
  ...r,
  warnings: [],
  results: r.results.map(
    ({ request: _r, expected: _e, actual: _a, excerpt: _x, ...x }): CheckResult => ({
      ...x,
      message: x.status === 'failed' ? '' : x.message,
      errors: [],
    }),
  ),
});

describe("the proxy's findings in its reports", () => {
  it('are the records the proxy wrote, read by every report without an upgrade', async () => {
    const proxy = await runTestProxy(upstream.url, { reporters: ['json'] });
    removeAfterFile(proxy.dir);
    await driveClient(proxy.url);
    const again = await fetch(`${proxy.url}${PLANTED.wrongCode}?ip=1.1.1.1&appkey=${KEY}`);
    await again.arrayBuffer();
    await proxy.stop();
    const text = await readFile(path.join(proxy.dir, 'reports/contract-results.json'), 'utf8');
    const written = JSON.parse(text) as ContractRunResult;

    // Written by the proxy: every check's findings and the run's are in the file.
    for (const r of written.results) expect(Object.hasOwn(r, 'findings'), r.check).toBe(true);
    expect(written.findings!.length).toBeGreaterThanOrEqual(5);
    // Each failing exchange's record, as the judge wrote it: its message and its own request.
    const ip = written.results.find(
      (r) => r.operation === 'getIpLocation' && r.check === 'business-code',
    )!;
    expect(ip.findings!.map((f) => [f.severity, f.message, f.evidence?.request?.url])).toEqual([
      [
        'failure',
        'observed GET: expected a code of group base (100), got code 999',
        expect.stringMatching(/\/v2\/location\/ip\?ip=223\.5\.5\.5&appkey=\*\*\*$/),
      ],
      [
        'failure',
        'observed GET: expected a code of group base (100), got code 999',
        expect.stringMatching(/\/v2\/location\/ip\?ip=1\.1\.1\.1&appkey=\*\*\*$/),
      ],
    ]);
    // Every failed check's findings hold its failure; every passed check's hold none.
    for (const r of written.results)
      expect(
        r.findings!.some((f) => f.severity === 'failure'),
        `${r.operation} ${r.check}`,
      ).toBe(r.status === 'failed');

    // The reports read the records: the same with the fields written before them emptied (a
    // result without findings would be upgraded from those, and say nothing of its failures).
    const reports = render(written);
    expect(reports).toContain('getIpLocation · business-code: observed GET: expected a code');
    // Each observed exchange's detail line names its own request (the URL redacted when judged).
    for (const ipValue of ['223.5.5.5', '1.1.1.1'])
      expect(reports).toMatch(
        new RegExp(
          `GET http://127\\.0\\.0\\.1:\\d+/v2/location/ip\\?ip=${ipValue.replace(/\./g, '\\.')}&appkey=\\*\\*\\*: expected a code of group base \\(100\\), got code 999`,
        ),
      );
    expect(render(withoutOlderFields(written))).toBe(reports);
  });

  it(`keep ${KEPT_FINDINGS} records per check on a long run, and count every finding`, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-proxy-kept-'));
    removeAfterFile(dir);
    let live = '';
    const out = new Writable({
      write(chunk, _enc, cb) {
        live += String(chunk);
        cb();
      },
    });
    const session = new TrafficSession({ model, out, secrets: () => [KEY] });
    const proxy = await startProxy({
      model,
      upstream: upstream.url,
      port: 0,
      secrets: [KEY],
      onExchange: (o, j) => session.observe(o, j),
    });
    // Failing exchanges past the bound, and as many answered requests no operation documents.
    const failing = KEPT_FINDINGS + 150;
    const undocumented = KEPT_FINDINGS + 50;
    const urls = [
      ...Array.from(
        { length: failing },
        (_, i) => `${proxy.url}${PLANTED.wrongCode}?ip=10.0.${i >> 8}.${i & 255}&appkey=${KEY}`,
      ),
      // A method the path does not document, answered: a warning about the description each.
      ...Array.from(
        { length: undocumented },
        () => `${proxy.url}/Weather/AirQuality?appkey=${KEY}`,
      ),
    ];
    for (let i = 0; i < urls.length; i += 10)
      await Promise.all(
        urls.slice(i, i + 10).map(async (u) => {
          const res = await fetch(u, { method: u.includes('/Weather/') ? 'DELETE' : 'GET' });
          await res.arrayBuffer();
        }),
      );
    await proxy.close();
    expect(proxy.judging()).toMatchObject({ exchanges: failing + undocumented, overloaded: 0 });

    // Printed live and counted: every one.
    const lines = live.split('\n');
    expect(lines.filter((l) => l.startsWith('✗ getIpLocation business-code: '))).toHaveLength(
      failing,
    );
    expect(session.log.failures).toBe(failing);
    // Kept: the bound, the rest counted.
    const result = session.log.result(model, upstream.url);
    const ip = result.results.find(
      (r) => r.operation === 'getIpLocation' && r.check === 'business-code',
    )!;
    expect(ip.status).toBe('failed');
    expect(ip.findings).toHaveLength(KEPT_FINDINGS);
    expect(ip.findingsNotKept).toBe(failing - KEPT_FINDINGS);
    expect(result.findingsNotKept).toBe(failing - KEPT_FINDINGS + (undocumented - KEPT_FINDINGS));

    // The reports say how many were not kept.
    const report = buildReport(result, model);
    const note = `... ${failing - KEPT_FINDINGS} more like these (counted, not kept)`;
    expect(renderConsole(report)).toContain(`      ${note}\n`);
    expect(renderConsole(report)).toContain(
      `; ${failing - KEPT_FINDINGS + undocumented - KEPT_FINDINGS} more findings counted, not kept (the first 200 of each check are)`,
    );
    expect(renderJUnit(report)).toContain(`  ${note}`);
    expect(renderHtml(report)).toContain(note);
  });
});
