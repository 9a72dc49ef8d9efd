/**
 * Verdicts a QA engineer can trust on a server nobody here wrote: against the shelf server (a real
 * Fastify server, shelf-server.ts) and its description, only the planted violation fails; what
 * the description is silent about is a warning with its pointer; what the run lacked (credentials,
 * test data) is not tested, with the reason; the description's server path is joined to a
 * --base-url that has none; and a user's severity setting moves a check between failure and
 * warning, --strict still failing on every warning.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { find, failedOf, reportDir, runCli, type CliRun } from './harness.ts';
import { SHELF_KEY, startShelf, type Shelf } from './shelf-server.ts';

const SPEC = 'test/fixtures/verdicts/shelf.yaml';
let shelf: Shelf;

beforeAll(async () => {
  shelf = await startShelf();
});
afterAll(() => shelf.close());

const run = (name: string, args: string[], env: Record<string, string> = {}) =>
  runCli(
    'contract',
    ['--spec', SPEC, '--base-url', shelf.url, '--report-dir', reportDir(name), ...args],
    name,
    { DATAAPI_APPKEY: SHELF_KEY, ...env },
  );

const warningsOf = (r: CliRun) => r.result!.warnings.map((w) => `${w.code} ${w.pointer}`);

describe('verdicts against a server others could have written', () => {
  let keyed: CliRun;
  beforeAll(async () => {
    keyed = await run('verdicts-key', ['--allow-writes']);
  }, 300_000);

  it('fails only the planted violation, and joins the server path to --base-url', () => {
    const tail = keyed.stdout.slice(-3000) + keyed.stderr;
    expect(failedOf(keyed), tail).toEqual(['listBooks schema main']);
    expect(find(keyed, 'listBooks', 'schema')!.actual).toContain('/1/title must be string');
    expect(keyed.code).toBe(1);
    expect(keyed.stderr).toContain("the description's server URL has the path /api/v2");
    const sent = shelf.lines.filter((l) => !l.startsWith('GET /api/v2/health'));
    expect(sent.length).toBeGreaterThan(10);
    for (const line of shelf.lines) expect(line).toMatch(/^[A-Z]+ \/api\/v2\//);
  });

  it('warns, with the pointer, where the description is silent instead of failing the server', () => {
    const w = warningsOf(keyed);
    expect(w).toContain('undeclared-content /paths/~1health/get/responses/200');
    expect(w).toContain('path-parameter-greedy /paths/~1files~1{name}/get');
    // 401 to a request without a key, which no operation declares: the description's silence.
    expect(w).toContain('undeclared-status /paths/~1loans~1{loanId}/get/responses');
    expect(find(keyed, 'getHealth', 'content-type')!.status).toBe('passed');
    expect(find(keyed, 'getFile', 'method-path')!.status).toBe('passed');
  });

  it('says "not tested: missing-test-data" for a 404 on an identifier it made up', () => {
    const loan = find(keyed, 'getLoan', 'status')!;
    expect(loan.status).toBe('skipped');
    expect(loan.notTested).toBe('missing-test-data');
    expect(loan.message).toMatch(/^not tested \(missing-test-data\): .*HTTP 404 for loanId=/);
    expect(keyed.stdout).toMatch(/not tested: .*missing-test-data/);
  });
});

describe('without credentials', () => {
  it('tests only the refusals of secured operations and says so once, up front', async () => {
    // With --fuzz too: nothing is generated for what is not tested.
    const r = await run('verdicts-nokey', ['--fuzz', '3', '--seed', '7'], { DATAAPI_APPKEY: '' });
    const tail = r.stdout.slice(-3000) + r.stderr;
    expect(failedOf(r), tail).toEqual([]);
    expect(r.code, tail).toBe(0);
    expect(r.stderr.match(/no credentials/g), tail).toHaveLength(1);
    expect(r.stderr).toContain('6 of 7 operations need one');
    const book = find(r, 'getBook', 'status')!;
    expect(book.notTested).toBe('no-credentials');
    expect(find(r, 'getBook', 'auth')!.status).toBe('passed');
    // The health check takes no key: tested as usual.
    expect(find(r, 'getHealth', 'status')!.status).toBe('passed');
    expect(r.result!.results.filter((x) => x.status === 'failed')).toEqual([]);
    expect(Object.keys(r.result!.fuzz?.operations ?? {})).toEqual(['getHealth']);
  }, 300_000);

  it('says nothing of credentials where the description declares no security', async () => {
    const r = await runCli(
      'contract',
      ['--spec', 'test/fixtures/generality/defaults.yaml', '--report-dir', reportDir('nosec')],
      'verdicts-nosec',
      { DATAAPI_APPKEY: '' },
    );
    expect(r.stderr).not.toContain('credentials');
    expect(r.stderr).not.toContain('DATAAPI_APPKEY');
  }, 300_000);
});

describe('severity set by the user', () => {
  it('--severity schema=warning lists the violation as a warning; --strict fails on it', async () => {
    const r = await run('verdicts-sev', ['--severity', 'schema=warning', '--only', 'listBooks']);
    const tail = r.stdout.slice(-3000) + r.stderr;
    expect(failedOf(r), tail).toEqual([]);
    expect(r.code, tail).toBe(0);
    const w = r.result!.warnings.find((x) => x.code === 'schema')!;
    expect(w.pointer).toBe('/paths/~1books/get');
    expect(w.message).toContain('/1/title must be string');
    const strict = await run('verdicts-sev-strict', [
      '--severity',
      'schema=warning',
      '--only',
      'listBooks',
      '--strict',
    ]);
    expect(strict.code).toBe(1);
  }, 300_000);

  it('--severity undeclared-content=failure fails the run on that warning; off drops it', async () => {
    const failing = await run('verdicts-sev-fail', [
      '--severity',
      'undeclared-content=failure',
      '--only',
      'getHealth',
    ]);
    expect(failing.code).toBe(1);
    const off = await run('verdicts-sev-off', [
      '--severity',
      'undeclared-content=off',
      '--only',
      'getHealth',
    ]);
    expect(off.code).toBe(0);
    expect(warningsOf(off)).toEqual([]);
  }, 300_000);

  it('takes contract.severity from the configuration file (a proxy section is known too)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-severity-config-'));
    try {
      const config = path.join(dir, 'dataapi.config.json');
      await writeFile(
        config,
        JSON.stringify({
          contract: { severity: { schema: 'warning' } },
          proxy: { severity: { 'method-path': 'warning' } },
        }),
      );
      const r = await run('verdicts-sev-config', ['--config', config, '--only', 'listBooks']);
      const tail = r.stdout.slice(-3000) + r.stderr;
      expect(failedOf(r), tail).toEqual([]);
      expect(r.code, tail).toBe(0);
      expect(r.result!.warnings.map((w) => w.code)).toContain('schema');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('refuses an unknown code or level with the closest name (exit 2)', async () => {
    const r = await run('verdicts-sev-bad', ['--severity', 'shema=warning']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "schema"');
    const level = await run('verdicts-sev-bad2', ['--severity', 'schema=error']);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain('failure, warning, off');
  });
});
