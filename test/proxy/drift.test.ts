/**
 * `--compare-mock`: a deployment (here the mock itself, behind a proxy that turns one operation's
 * 200 into a 503) compared with the embedded mock request by request: the one operation whose
 * status differs is reported as drift, with both answers side by side, and nothing else is.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SeveritySettings } from 'dataapi/model';
import { model } from '../../generated/model.ts';
import { compareWithMock } from '../../contract-tests/drift/compare.ts';
import { startEmbeddedMock } from '../../contract-tests/target.ts';
import { mapJson, startProxy } from '../contract/proxy.ts';
import { KEY } from './harness.ts';

const GENERATED = path.resolve('generated');
let closers: (() => Promise<void>)[] = [];
let deployment: string;
beforeAll(async () => {
  const mock = await startEmbeddedMock(GENERATED, KEY);
  const proxy = await startProxy(mock.url, [
    {
      path: '/v2/location/ip',
      response: (res) => (res.status === 200 ? { ...res, status: 503 } : res),
    },
    {
      // Same status, code and envelope; one payload field gone: drift in the fields present.
      path: '/v2/websitetools/sslcertinfo',
      response: (res) =>
        res.status === 200
          ? mapJson(res, (b) => {
              delete b.data.issuerDN;
              return b;
            })
          : res,
    },
  ]);
  closers = [proxy.close, mock.close];
  deployment = proxy.url;
});
afterAll(async () => {
  for (const c of closers) await c();
});

/** One comparison of the deployment with the embedded mock, its printed text kept. */
async function compare(only: string[], severity?: SeveritySettings) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-drift-'));
  let text = '';
  const out = new Writable({
    write(chunk, _e, cb) {
      text += String(chunk);
      cb();
    },
  });
  const result = await compareWithMock({
    model,
    generatedDir: GENERATED,
    baseUrl: deployment,
    appkey: KEY,
    timeoutMs: 300_000, // a safety net: a slow answer on a busy machine is not drift
    allowWrites: false,
    only,
    reportDir: 'reports',
    root: dir,
    out,
    ...(severity ? { severity } : {}),
  });
  return { ...result, text, dir };
}

it('reports the operation whose status differs from the mock, and nothing else', async () => {
  // (getSslCertInfo, which differs in its fields only, is the next test's.)
  const { exitCode, findings, text, dir } = await compare(
    model.operations.map((o) => o.id).filter((id) => id !== 'getSslCertInfo'),
  );
  expect(exitCode).toBe(1);
  expect(findings.length).toBeGreaterThan(0);
  expect(new Set(findings.map((f) => f.operation))).toEqual(new Set(['getIpLocation']));
  // Each is the one finding record: code drift of the catalogue, a failure, the differences as
  // its evidence's lines.
  for (const f of findings) {
    expect(f).toMatchObject({ code: 'drift', severity: 'failure', operation: 'getIpLocation' });
    expect(f.evidence!.errors).toContain('status: deployment HTTP 503, mock HTTP 200');
    expect(f.evidence!.status).toBe(503);
  }
  expect(text).toMatch(/≠ getIpLocation drift: valid request \(\w+\): GET \/v2\/location\/ip\?/);
  expect(text).toMatch(/status {7,}HTTP 503 +HTTP 200/);
  expect(text).not.toContain(KEY);
  const json = JSON.parse(await readFile(path.join(dir, 'reports', 'contract-drift.json'), 'utf8'));
  expect(json.findings).toHaveLength(findings.length);
  expect(JSON.stringify(json)).not.toContain(KEY);
});

it('reports a payload field the deployment leaves out, its values never compared', async () => {
  const { findings, entries } = await compare(['getSslCertInfo']);
  expect(findings.length).toBeGreaterThan(0);
  expect(entries).toHaveLength(findings.length);
  for (const f of findings) expect(f.message).toMatch(/otherwise than the mock \(fields\)$/);
  for (const e of entries) {
    expect(e.differences.map((d) => d.aspect)).toEqual(['fields']);
    expect(e.mock.fields.split(', ')).toContain('issuerDN');
    expect(e.deployment.fields.split(', ')).not.toContain('issuerDN');
  }
});

it("follows the user's --severity: drift=warning reports without failing, drift=off not at all", async () => {
  const run = (severity: 'warning' | 'off') => compare(['getIpLocation'], { drift: severity });
  const warned = await run('warning');
  expect(warned.exitCode).toBe(0);
  expect(warned.findings.length).toBeGreaterThan(0);
  for (const f of warned.findings) expect(f.severity).toBe('warning');
  expect(warned.text).toMatch(/≠ getIpLocation drift/);
  const off = await run('off');
  expect(off.exitCode).toBe(0);
  expect(off.findings).toEqual([]);
  expect(off.text).not.toMatch(/≠ getIpLocation drift/);
});
