/**
 * Zero false failures (contract-tests/recheck.ts). test/fixtures/recheck/recheck.yaml requires a
 * `User-Agent` header, which fetch always sends: the suite used to send a "header User-Agent
 * missing" case that is valid on the wire (the recheck put it down as a toolkit fault); it now
 * builds no such case and says so in the coverage (contract-tests/fetch-headers.ts). A real
 * failure (a lax server that takes a missing `q`) is still reported.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';
import { startRecheckServer } from './recheck-server.ts';

const SPEC = path.join(ROOT, 'test/fixtures/recheck/recheck.yaml');

const faultsOf = (run: Awaited<ReturnType<typeof runCli>>) =>
  (run.result?.toolkitFaults ?? []).map((f) => `${f.operation} ${f.check} ${f.purpose}`);

describe('contract: a request the suite built wrong is a toolkit fault', () => {
  it('against its own mock: no unsendable case, no fault, no failure, exit 0', async () => {
    const run = await runCli('contract', ['--spec', SPEC], 'recheck-mock');
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(failedOf(run), tail).toEqual([]);
    expect(faultsOf(run), tail).toEqual([]);
    expect(run.result!.summary.toolkitFaults ?? 0).toBe(0);
    expect(run.stdout).toMatch(/not exercised: .*getGreeting header User-Agent missing/);
    expect(run.code, tail).toBe(0);
  });

  describe('against real servers', () => {
    const servers: Awaited<ReturnType<typeof startRecheckServer>>[] = [];
    beforeAll(async () => {
      servers.push(await startRecheckServer({ strict: false }));
      servers.push(await startRecheckServer({ strict: true }));
    });
    afterAll(async () => {
      for (const s of servers) await s.close();
    });

    it('a lax server: the real failure is reported (exit 1), the planted case is not', async () => {
      const run = await runCli(
        'contract',
        ['--spec', SPEC, '--base-url', servers[0]!.url],
        'recheck-lax',
      );
      const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
      expect(failedOf(run), tail).toEqual(['searchItems negative main']);
      const failure = run.result!.results.find((r) => r.status === 'failed')!;
      expect(failure.message).toMatch(/query q missing/);
      expect(faultsOf(run), tail).toEqual([]);
      expect(run.code, tail).toBe(1);
    });

    it('a conforming server: no failure', async () => {
      const run = await runCli(
        'contract',
        ['--spec', SPEC, '--base-url', servers[1]!.url],
        'recheck-strict',
      );
      const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
      expect(failedOf(run), tail).toEqual([]);
      expect(run.code, tail).toBe(0);
    });
  });
});
