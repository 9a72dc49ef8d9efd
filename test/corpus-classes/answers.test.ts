/**
 * Class 5 of issue 48: the mock answers every request within its own time bound. A `pattern` with
 * nested quantifiers backtracked without end on the suite's too-long value: the mock's event loop
 * stayed busy, and that request, the wrong-method and unknown-path probes after it and every
 * other request timed out. The mock runs as a child process here (a held event loop cannot hold
 * the test's). Then the safety net: a handler that never finishes gets a 503 in the error shape
 * once the bound has passed, logged.
 */
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mayBacktrack } from '../../model/safe-regexp.ts';
import { killStarted, startCli } from '../mock/cli-process.ts';
import { fixture, serve, type Served } from './helpers.ts';

afterEach(killStarted);

/** A request that must be answered within `ms` (a held mock is a failure, not a hang). */
async function answered(url: string, init: RequestInit = {}, ms = 5000) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
  return { status: res.status, text: await res.text() };
}

describe('a pattern that backtracks without end', () => {
  it('is answered, and so is every probe after it', async () => {
    const cli = startCli([
      '--spec',
      fixture('slow-pattern.yaml'),
      '--port',
      '0',
      '--no-rate-limit',
    ]);
    const url = await cli.listening;
    const tooLong = await answered(`${url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x'.repeat(41) }),
    });
    expect(tooLong.status, tooLong.text).toBe(400);
    expect(JSON.parse(tooLong.text)).toHaveProperty('error'); // the operation's 400 shape
    const path = await answered(`${url}/notes/${'a'.repeat(30)}!`);
    expect(path.status, path.text).toBe(400);
    expect((await answered(`${url}/notes`, { method: 'DELETE' })).status).toBe(405);
    expect((await answered(`${url}/notes/a/no-such-path`)).status).toBe(404);
    const valid = await answered(`${url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'abc1' }),
    });
    expect(valid.status, valid.text).toBe(201);
  }, 30_000);
});

describe('a handler that never finishes', () => {
  let served: Served;
  const logged: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, next) {
        logged.push(chunk.toString());
        next();
      },
    });
    served = await serve('slow-pattern.yaml', {
      handlers: { addNote: () => new Promise(() => undefined) },
      answerTimeoutMs: 300,
      logger: { level: 'error', stream },
    });
  });
  afterAll(() => served?.close());

  it('gets a 503 in the error shape once the bound has passed, logged', async () => {
    const got = await answered(`${served.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'abc1' }),
    });
    expect(got.status, got.text).toBe(503);
    const body = JSON.parse(got.text) as Record<string, unknown>;
    expect(String(body['detail'])).toContain('did not answer POST /notes within 300 ms');
    expect(logged.join('')).toContain('did not answer POST /notes within 300 ms');
    // Every other operation still answers.
    expect((await answered(`${served.url}/notes/abc`)).status).toBe(200);
  });
});

describe('which patterns run on the linear-time engine', () => {
  it('those with a repeated group that repeats or alternates, and no others', () => {
    for (const p of ['^([a-z]+)*[0-9]$', '^(\\w+\\s?)*$', '^(a|aa)+$', '^([0-9]{1,3}\\.?){2,}$'])
      expect(mayBacktrack(p), p).toBe(true);
    for (const p of [
      '^[a-z]+$',
      '^\\d{3}-\\d{4}$',
      '^(abc)?[0-9]+$',
      '^(\\+|-)?\\d+$',
      '^[(a+)*]$',
    ])
      expect(mayBacktrack(p), p).toBe(false);
  });
});
