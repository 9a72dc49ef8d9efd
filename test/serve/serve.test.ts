/**
 * `dataapi serve` as a process: it refuses to start without a key source (exit 2, saying how to
 * give keys); with a keys file it accepts the keys (plain and hashed), answers a wrong key 401
 * with the group's code, operations without a handler 501 in their envelope, a failing handler 500
 * with the request id and no stack; it logs JSON with request ids and never the key; and SIGTERM
 * lets the requests in flight finish.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvelope } from 'dataapi/runtime/shared';
import { businessCodeFor } from 'dataapi/runtime/server';
import { model } from '../../generated/model.ts';
import { FIXTURES, logLines, runServe, startServe, type ServeProcess } from './helpers.ts';

// Keys files live in this run's own temporary folder.
const WORK = path.join(tmpdir(), `dataapi-serve-test-${process.pid}`);
afterAll(() => rm(WORK, { recursive: true, force: true }));
const op = (id: string) => model.operations.find((o) => o.id === id)!;
const KEY = 'plain-key-Ünïcode';
const HASHED_KEY = 'hashed-key-42';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('key sources', () => {
  it('refuses to start without one: exit 2 and how to give keys', async () => {
    const run = await runServe(['--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no key source/);
    for (const way of ['--keys-file', 'DATAAPI_KEYS', '--insecure-any-key'])
      expect(run.stderr).toContain(way);
    expect(run.stderr).not.toMatch(/listening/);
  });

  it('a malformed hashed key stops the start, naming the line but not its content', async () => {
    await mkdir(WORK, { recursive: true });
    const file = path.join(WORK, 'bad-keys.txt');
    await writeFile(file, 'first-secret\nsha256:abc123secretish\n');
    const run = await runServe(['--port', '0', '--keys-file', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2`);
    expect(run.stderr).not.toContain('abc123secretish');
    expect(run.stderr).not.toContain('first-secret');
  });

  it('--insecure-any-key cannot be mixed with keys and is announced loudly', async () => {
    const mixed = await runServe(['--port', '0', '--insecure-any-key'], { DATAAPI_KEYS: 'k' });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/choose one key source/);
    const open = await startServe(['--insecure-any-key', '--no-docs']);
    try {
      expect(open.stderr()).toMatch(/!!! .*ANY non-empty key is accepted/);
      const res = await fetch(`${open.url}/v2/location/ip?appkey=whatever&ip=1.1.1.1`);
      expect(res.status).toBe(501); // accepted; no handler folder: every operation is 501
    } finally {
      expect(await open.stop()).toBe(0);
    }
  });
});

describe('serve with a keys file and handlers', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    await mkdir(WORK, { recursive: true });
    const keys = path.join(WORK, 'keys.txt');
    await writeFile(keys, `# accepted keys\n${KEY}\n\nsha256:${sha256(HASHED_KEY)}\n`);
    serve = await startServe([
      '--keys-file',
      keys,
      '--handlers',
      path.join(FIXTURES, 'handlers'),
      '--no-docs',
    ]);
  });
  afterAll(async () => {
    await serve?.stop();
  });

  const ip = (key: string) =>
    `${serve.url}/v2/location/ip?appkey=${encodeURIComponent(key)}&ip=1.1.1.1`;

  it('accepts a key of the file and a key whose hash is in it; refuses others with 401 and the code', async () => {
    expect((await fetch(ip(KEY))).status).toBe(200);
    expect((await fetch(ip(HASHED_KEY))).status).toBe(200);
    expect((await fetch(ip(sha256(HASHED_KEY)))).status).toBe(401); // the hash is no key
    const ranking = op('getGlobalUniversityRanking');
    const wrong = await fetch(`${serve.url}/metadata/global-university-ranking?appkey=nope`);
    expect(wrong.status).toBe(401);
    const body = readEnvelope(ranking, await wrong.json());
    expect(body.code).toBe(businessCodeFor(model, ranking, 401, 'wrong_key'));
    expect(body.code).toBe(104);
    expect((await fetch(`${serve.url}/metadata/global-university-ranking`)).status).toBe(401);
  });

  it('an operation without a handler is 501 in its envelope (after the key check)', async () => {
    const air = op('getAirQuality');
    const res = await fetch(
      `${serve.url}/Weather/AirQuality?appkey=${encodeURIComponent(KEY)}&city=x`,
    );
    expect(res.status).toBe(501);
    const body = readEnvelope(air, await res.json());
    expect(body.code).toBe(businessCodeFor(model, air, 501, 'service_error'));
    expect(body.payload).toBeNull();
    expect((await fetch(`${serve.url}/Weather/AirQuality?appkey=no&city=x`)).status).toBe(401);
  });

  it('a failing handler is a 500 in the envelope with the request id, no stack, key kept out of the log', async () => {
    const ranking = op('getGlobalUniversityRanking');
    const res = await fetch(
      `${serve.url}/metadata/global-university-ranking?appkey=${encodeURIComponent(KEY)}`,
      { headers: { 'x-request-id': 'trace-abc-123' } },
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    const text = await res.text();
    const body = readEnvelope(ranking, JSON.parse(text));
    expect(body.description).toContain('trace-abc-123');
    expect(text).not.toMatch(/refused key|at .*\.ts:\d+|Error:/);
    // The log line is written after the answer: wait for it.
    const lines = await serve.untilLog((l) => l.some((x) => x.msg === 'handler failed'));
    const failed = lines.find((l) => l.msg === 'handler failed');
    expect(failed?.reqId).toBe('trace-abc-123');
    expect(JSON.stringify(failed)).toContain('ranking database refused key');
  });

  it('request ids: a malformed X-Request-Id is replaced by a new one', async () => {
    const res = await fetch(ip(KEY), { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('health and readiness answer; nothing in the logs carries a key', async () => {
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${serve.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    await fetch(`${serve.url}/v2/location/ip?ip=1.1.1.1`, { headers: { 'x-trace': KEY } });
    const log = serve.stdout();
    const lines = logLines(log);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.some((l) => String((l.req as { url?: string })?.url).includes('appkey=***'))).toBe(
      true,
    );
    for (const secret of [KEY, encodeURIComponent(KEY), HASHED_KEY, 'nope'])
      expect(log).not.toContain(`appkey=${secret}`);
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(encodeURIComponent(KEY));
    expect(log).not.toContain(HASHED_KEY);
  });
});

describe('handlers outside the project', () => {
  it('--handlers with an absolute folder outside any package: each handler counted once', async () => {
    // Loaded as CommonJS there (no "type": "module" above it): a module's default export is its
    // exports object, which once made every handler "a handler in both FILE and FILE".
    const dir = path.join(tmpdir(), `dataapi-handlers-outside-${process.pid}`);
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'ip-location.ts'),
      'export const getIpLocation = async () => ({ Ip: "127.0.0.1" });\n',
    );
    let serve: ServeProcess | undefined;
    try {
      serve = await startServe(['--handlers', dir], { DATAAPI_KEYS: 'outside-key' });
      // It started (a duplicate stops the start with exit 2) and says nothing of a duplicate.
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(serve.stderr()).not.toContain('has a handler in both');
    } finally {
      await serve?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM lets the requests in flight finish, then refuses new connections and exits 0', async () => {
    const serve = await startServe([
      '--insecure-any-key',
      '--no-docs',
      '--handlers',
      path.join(FIXTURES, 'handlers'),
    ]);
    const slow = Array.from({ length: 4 }, (_, i) =>
      fetch(`${serve.url}/v2/location/ip?appkey=k${i}&ip=1.1.1.1`, {
        headers: { 'x-hold': `request-${i}` },
      }).then(async (r) => ({ status: r.status, body: await r.text() })),
    );
    // All four are in the handler, which answers only once the process has its SIGTERM.
    await serve.untilLog((l) => l.filter((x) => x.msg === 'fixture: request held').length === 4);
    const exit = serve.stop('SIGTERM');
    const answers = await Promise.all(slow);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toContain('杭州');
    }
    expect(await exit, serve.stdout().slice(-3000) + serve.stderr()).toBe(0);
    await expect(fetch(`${serve.url}/healthz`)).rejects.toThrow();
    const messages = logLines(serve.stdout()).map((l) => l.msg);
    expect(messages).toContain('SIGTERM: finishing the requests in flight, then stopping');
    expect(messages.indexOf('stopped')).toBeGreaterThan(messages.lastIndexOf('request completed'));
  });
});
