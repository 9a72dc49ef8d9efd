/**
 * `dataapi mock` as a child process (the built dist/), resolved once it listens: a mock that
 * holds its event loop cannot hold the test's. `killStarted()` in an afterEach: a test that fails
 * (or times out) before it stops its mock leaves no server running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children: ChildProcess[] = [];

export function killStarted(): void {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export function startCli(args: string[], env: Record<string, string> = {}) {
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
