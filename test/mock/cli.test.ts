/** `dataapi mock`: prints its address and keys (env key redacted), serves, and stops on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// A test that fails (or times out) before it stops its mock leaves no server running.
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startCli(args: string[], env: Record<string, string> = {}) {
  const base = { ...process.env };
  delete base.DATAAPI_APPKEY;
  const child = spawn(process.execPath, ['bin/dataapi.js', 'mock', ...args], {
    cwd: root,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  listening.catch(() => undefined); // awaited only by tests that expect it to start
  return { child, listening, exited, output: () => out, errors: () => err };
}

describe('dataapi mock', () => {
  it('serves on an ephemeral port, redacts DATAAPI_APPKEY, shuts down on SIGTERM', async () => {
    const cli = startCli(['--port', '0', '--no-rate-limit'], { DATAAPI_APPKEY: 'sk-live-abcdef' });
    const url = await cli.listening;
    expect(cli.output()).toContain('accepted key: *** (from DATAAPI_APPKEY)');
    expect(cli.output()).toContain('rate limits: off');
    expect(cli.output()).not.toContain('sk-live-abcdef');
    const res = await fetch(`${url}/Weather/AirQuality?appkey=sk-live-abcdef&city=x`);
    expect(res.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain('shutting down');
  });

  it('prints the default key when DATAAPI_APPKEY is unset; stops on SIGINT', async () => {
    const cli = startCli(['--port', '0']);
    const url = await cli.listening;
    expect(cli.output()).toContain('accepted key: mock-appkey');
    expect(cli.output()).toContain('rate limits: on');
    expect((await fetch(`${url}/__health`)).status).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('rejects a bad port with exit code 2', async () => {
    const cli = startCli(['--port', 'nope']);
    expect(await cli.exited).toBe(2);
    expect(cli.errors()).toContain('--port');
  });
});
