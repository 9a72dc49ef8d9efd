/**
 * `dataapi proxy` as a user runs it: a process that prints its findings live and writes its
 * reports and HAR file when interrupted (SIGINT), exiting 1 because the traffic had a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { KEY, runTestProxy } from './harness.ts';
import { PLANTED, startUpstream, type Upstream } from './upstream.ts';
import { sarifProblems } from '../lifecycle/sarif-check.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());
// A test that fails (or times out) before it interrupts its proxy leaves no process running.
let started: ChildProcess | undefined;
afterEach(() => {
  if (started && started.exitCode === null && started.signalCode === null) started.kill('SIGKILL');
  started = undefined;
});

it('prints findings live and writes reports and the HAR on SIGINT', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-proxy-cli-'));
  const har = path.join(dir, 'traffic.har');
  const child = spawn(
    process.execPath,
    [
      'bin/dataapi.js',
      'proxy',
      '--upstream',
      upstream.url,
      '--port',
      '0',
      '--reporter',
      'json,junit,sarif',
      '--report-dir',
      path.join(dir, 'reports'),
      '--record',
      har,
    ],
    { env: { ...process.env, DATAAPI_APPKEY: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  started = child;
  let stdout = '';
  let stderr = '';
  const waiting: (() => void)[] = [];
  child.stdout.on('data', (c) => {
    stdout += String(c);
    for (const w of [...waiting]) w();
  });
  child.stderr.on('data', (c) => (stderr += String(c)));
  const waitFor = (re: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const m = re.exec(stdout);
        if (m) {
          waiting.splice(waiting.indexOf(look), 1);
          resolve(m);
        }
      };
      waiting.push(look);
      child.once('exit', () => reject(new Error(`proxy exited: ${stdout}${stderr}`)));
      look();
    });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const [, url] = await waitFor(/dataapi proxy: (http:\/\/\S+) ->/);
  const res = await fetch(`${url}${PLANTED.wrongCode}?ip=1.2.3.4&appkey=${KEY}`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  await waitFor(/✗ getIpLocation business-code: .*\n/);
  child.kill('SIGINT');
  expect(await exited).toBe(1);
  expect(stdout).toContain('SIGINT, writing the reports');
  expect(stdout + stderr).not.toContain(KEY);
  const results = JSON.parse(
    await readFile(path.join(dir, 'reports', 'contract-results.json'), 'utf8'),
  );
  expect(results.summary.failed).toBe(1);
  expect(await readFile(path.join(dir, 'reports', 'contract-junit.xml'), 'utf8')).toContain(
    'getIpLocation',
  );
  // Code scanning reads the proxy's findings too: a valid SARIF log with the business-code result.
  const sarif = await readFile(path.join(dir, 'reports', 'contract-results.sarif'), 'utf8');
  expect(sarifProblems(sarif)).toEqual([]);
  expect(JSON.parse(sarif).runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toContain(
    'business-code',
  );
  const text = await readFile(har, 'utf8');
  expect(text).not.toContain(KEY);
  const log = JSON.parse(text).log;
  expect(log.version).toBe('1.2');
  expect(log.entries).toHaveLength(1);
  expect(log.entries[0].request.url).toContain('appkey=***');
  expect(log.entries[0].response.content.text).toBe(
    upstream.sent.get(PLANTED.wrongCode)!.toString(),
  );
});

it('rewrites the reports every --report-every seconds while it runs', async () => {
  const proxy = await runTestProxy(upstream.url, { reportEverySeconds: 1, record: true });
  try {
    const res = await fetch(`${proxy.url}${PLANTED.wrongCode}?ip=1.2.3.4&appkey=${KEY}`);
    await res.arrayBuffer();
    const file = path.join(proxy.dir, 'reports', 'contract-results.json');
    // Waits for the periodic write (the proxy is still running): the file with the request in it.
    let results: { summary: { requests: number; failed: number } } | undefined;
    while (!results || results.summary.requests < 1) {
      await new Promise((r) => setTimeout(r, 100));
      results = await readFile(file, 'utf8').then(JSON.parse, () => undefined);
    }
    expect(results.summary.failed).toBe(1);
    const har = JSON.parse(await readFile(path.join(proxy.dir, 'traffic.har'), 'utf8'));
    expect(har.log.entries).toHaveLength(1);
    // Periodic writes print nothing: the live output stays findings only.
    expect(proxy.output()).not.toContain('Checks:');
  } finally {
    await proxy.stop();
  }
});

it('refuses a --ca file that holds no certificate, naming it, and starts nothing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-proxy-ca-'));
  const file = path.join(dir, 'not-a-ca.pem');
  await writeFile(file, 'hello');
  const child = spawn(
    process.execPath,
    ['bin/dataapi.js', 'proxy', '--upstream', 'https://127.0.0.1:9', '--port', '0', '--ca', file],
    { cwd: path.resolve(import.meta.dirname, '../..') },
  );
  started = child;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  expect(code).toBe(2);
  expect(stderr).toBe(
    `dataapi proxy: --ca: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)\n`,
  );
});
