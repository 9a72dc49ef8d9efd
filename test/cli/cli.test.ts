/**
 * The command line's rough edges, as a user meets them (the real `dataapi` in a child process):
 * stray words and bad flags are refused with exit 2 and a plain message, names get a
 * did-you-mean, an operationId of the spec is accepted by --only, and Ctrl-C during generate
 * says what happened (exit 130).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeWork } from '../work.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'dataapi-cli-'));
// Its scratch folder goes with it (KEEP_WORK=1 keeps it for a look), and a generate that a failed
// test left blocked on its FIFO goes too.
let blocked: ChildProcess | undefined;
afterAll(() => {
  if (blocked && blocked.exitCode === null && blocked.signalCode === null) blocked.kill('SIGKILL');
  removeWork(work);
});

function dataapi(args: string[]) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS') env[k] = v;
  delete env['DATAAPI_APPKEY'];
  return spawnSync(process.execPath, ['bin/dataapi.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    env,
  });
}

/** The first line of the error, where the message is (the usage follows it). */
const firstLine = (text: string) => text.split('\n')[0]!;

describe('bad input: exit 2, a message a user can act on', () => {
  it('a stray word is refused, not ignored (contract getAirQuality)', () => {
    const r = dataapi(['contract', 'getAirQuality']);
    expect(r.status).toBe(2);
    expect(firstLine(r.stderr)).toBe(
      'dataapi: unexpected argument "getAirQuality" (to test only some operations: --only getAirQuality)',
    );
    expect(dataapi(['generate', '--check', 'extra']).status).toBe(2);
  });

  it('a negative number and an unknown flag get plain words, quotes balanced', () => {
    const timeout = dataapi(['contract', '--timeout', '-5']);
    expect(timeout.status).toBe(2);
    expect(firstLine(timeout.stderr)).toBe(
      'dataapi: --timeout must be a whole number of milliseconds, at least 1, got "-5"',
    );
    const unknown = dataapi(['contract', '--timout', '5']);
    expect(unknown.status).toBe(2);
    expect(firstLine(unknown.stderr)).toBe(
      'dataapi: unknown option --timout (did you mean "--timeout"?)',
    );
    const missing = dataapi(['contract', '--only']);
    expect(missing.status).toBe(2);
    expect(firstLine(missing.stderr)).toMatch(/^dataapi: --only needs a value/);
    for (const r of [timeout, unknown, missing])
      expect((firstLine(r.stderr).match(/'/g) ?? []).length % 2).toBe(0);
  });

  it('--checks and --exclude-checks take check names: an unknown one gets the closest', () => {
    const typo = dataapi(['contract', '--checks', 'status,stauts']);
    expect(typo.status).toBe(2);
    expect(firstLine(typo.stderr)).toMatch(
      /^dataapi: --checks: unknown check "stauts" \(did you mean "status"\?\)\. Known: status, /,
    );
    const excluded = dataapi(['contract', '--exclude-checks', 'negativ']);
    expect(excluded.status).toBe(2);
    expect(firstLine(excluded.stderr)).toMatch(
      /--exclude-checks: unknown check "negativ" \(did you mean "negative"\?\)/,
    );
    const none = dataapi(['contract', '--checks', 'status', '--exclude-checks', 'status']);
    expect(none.status).toBe(2);
    expect(firstLine(none.stderr)).toBe(
      'dataapi: --checks and --exclude-checks leave no check to run',
    );
  });

  it('--only suggests the operation meant', () => {
    const r = dataapi(['contract', '--only', 'getairquality']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /unknown operation "getairquality" in --only \(did you mean "getAirQuality"\?\)/,
    );
  });

  it('a report folder that is a file is refused before any request, not a stack after the run', () => {
    mkdirSync(work, { recursive: true });
    const file = path.join(work, 'not-a-folder');
    writeFileSync(file, 'x');
    for (const flags of [
      ['--report-dir', file],
      ['--results', path.join(file, 'results.json')],
    ]) {
      const r = dataapi(['contract', '--only', 'getAirQuality', ...flags]);
      expect(r.status).toBe(2);
      expect(firstLine(r.stderr)).toMatch(
        /^dataapi contract: --(report-dir|results): .*not-a-folder is not a folder$/,
      );
      expect(r.stdout).not.toContain('getAirQuality:');
    }
  });
});

describe('--only takes any operationId of the spec', () => {
  it('the operationId of a /demo variant runs that preview variant only', () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const results = path.join(work, 'demo.json');
    const r = dataapi([
      'contract',
      '--only',
      'getAirQualityDemo',
      '--results',
      results,
      '--report-dir',
      work,
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const run = JSON.parse(readFileSync(results, 'utf8')) as {
      results: { operation: string; variant: string }[];
    };
    expect(run.results.length).toBeGreaterThan(5);
    for (const x of run.results)
      expect(x).toMatchObject({ operation: 'getAirQuality', variant: 'preview' });
  });
});

describe('Ctrl-C during generate', () => {
  it('says what happened and exits 130, the output folder untouched', async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    // generate blocks reading a FIFO spec: it is certainly running when the signal comes.
    const fifo = path.join(work, 'spec.yaml');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(
      process.execPath,
      ['bin/dataapi.js', 'generate', '--spec', fifo, '--out', path.join(work, 'out')],
      {
        cwd: root,
      },
    );
    blocked = child;
    let stderr = '';
    const said = new Promise<void>((resolve) =>
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (/interrupted/.test(stderr)) resolve();
      }),
    );
    const writer = await open(fifo, 'w'); // resolves once generate has opened the spec
    child.kill('SIGINT');
    const code = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    // Once the signal was handled (its message is out), let the blocked read finish so the
    // process can exit.
    await said;
    await writer.close();
    expect(await code).toBe(130);
    expect(stderr).toMatch(/dataapi generate: interrupted; .*out was left as it was/);
  });
});
