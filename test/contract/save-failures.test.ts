/**
 * `dataapi contract --save-failures DIR`: against a non-conforming Fastify server (it takes a
 * request without its required `q`), the failure is written as a vitest file that replays it; the
 * same run writes the same bytes; no file holds the key. Run with vitest, the saved test fails
 * against that server and passes against a conforming one (DATAAPI_BASE_URL).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, KEY, ROOT, runCli } from './harness.ts';
import { startRecheckServer } from './recheck-server.ts';
import { removeWork, workDir } from '../work.ts';

const SPEC = path.join(ROOT, 'test/fixtures/recheck/recheck.yaml');
// Inside the project, so that the saved tests' `dataapi/contract` resolves to this package.
const WORK = workDir('save-failures');

// A user's own vitest config (not this project's, which would look for test/**).
const CONFIG = path.join(WORK, 'vitest.config.mjs');

/** Runs saved tests with vitest in a child process, as a user would; its exit code and output. */
async function vitest(
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', CONFIG],
    {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', DATAAPI_APPKEY: KEY, NO_COLOR: '1', ...env },
    },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  return { code, out };
}

async function contents(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort())
    out[name] = await readFile(path.join(dir, name), 'utf8');
  return out;
}

describe('contract --save-failures', () => {
  const servers: Awaited<ReturnType<typeof startRecheckServer>>[] = [];
  beforeAll(async () => {
    await writeFile(CONFIG, "export default { test: { include: ['**/*.test.ts'] } };\n");
    servers.push(await startRecheckServer({ strict: false }));
    servers.push(await startRecheckServer({ strict: true }));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    removeWork(WORK);
  });

  it('writes each failure as a replaying vitest test: fails on the faulty server, passes on a conforming one', async () => {
    const [lax, strict] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const dirs = [path.join(WORK, 'a'), path.join(WORK, 'b')];
    for (const [i, dir] of dirs.entries()) {
      const run = await runCli(
        'contract',
        [
          '--spec',
          SPEC,
          '--base-url',
          lax.url,
          '--save-failures',
          dir,
          '--checks',
          'negative,status',
        ],
        `save-failures-${i}`,
      );
      const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
      expect(failedOf(run), tail).toEqual(['searchItems negative main']);
      expect(run.stdout).toMatch(/1 failure saved as tests in /);
    }
    const saved = await contents(dirs[0]!);
    expect(Object.keys(saved)).toEqual(['model.json', 'search-items.negative.test.ts']);
    // Deterministic: the same run writes the same bytes; the key is in no file.
    expect(await contents(dirs[1]!)).toEqual(saved);
    for (const text of Object.values(saved)) expect(text).not.toContain(KEY);
    const test = saved['search-items.negative.test.ts']!;
    expect(test).toContain(`process.env.DATAAPI_BASE_URL ?? '${lax.url}'`);
    expect(test).toMatch(/query q missing/);
    // Where the key went, a marker the test fills from DATAAPI_APPKEY.
    expect(test).toContain("path: '/items?appkey={{DATAAPI_APPKEY}}'");

    const faulty = await vitest(dirs[0]!, {});
    expect(faulty.out).toMatch(/expected refused: HTTP 400/);
    expect(faulty.code, faulty.out).toBe(1);
    const conforming = await vitest(dirs[0]!, { DATAAPI_BASE_URL: strict.url });
    expect(conforming.code, conforming.out).toBe(0);
    expect(conforming.out).toMatch(/1 passed/);
  }, 300_000);
});
