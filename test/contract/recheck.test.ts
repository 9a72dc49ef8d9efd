/**
 * Zero false failures (contract-tests/recheck.ts). test/fixtures/recheck/recheck.yaml requires a
 * `User-Agent` header, which fetch always sends: the suite's "header User-Agent missing" case is
 * valid on the wire, so a target that takes it is right, and that is a toolkit fault, never the
 * target's failure. A real one (a lax server that takes a missing `q`) is still reported.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';
import { startRecheckServer } from './recheck-server.ts';

const SPEC = path.join(ROOT, 'test/fixtures/recheck/recheck.yaml');

const faultsOf = (run: Awaited<ReturnType<typeof runCli>>) =>
  (run.result?.toolkitFaults ?? []).map((f) => `${f.operation} ${f.check} ${f.purpose}`);

describe('contract: a request the suite built wrong is a toolkit fault', () => {
  it('against its own mock: a toolkit fault, no failure, exit 0', async () => {
    const run = await runCli('contract', ['--spec', SPEC], 'recheck-mock');
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(failedOf(run), tail).toEqual([]);
    expect(faultsOf(run), tail).toEqual([
      'getGreeting negative negative: header User-Agent missing (required)',
    ]);
    expect(run.result!.summary.toolkitFaults).toBe(1);
    expect(run.result!.toolkitFaults![0]!.code).toBe('toolkit-fault');
    expect(run.stdout).toMatch(/Toolkit faults \(1\)/);
    expect(run.stdout).toMatch(/1 toolkit fault \(not failures\)/);
    expect(run.code, tail).toBe(0);
  }, 120_000);

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
      expect(faultsOf(run), tail).toEqual([
        'getGreeting negative negative: header User-Agent missing (required)',
      ]);
      expect(run.code, tail).toBe(1);
    }, 120_000);

    it('a conforming server: no failure', async () => {
      const run = await runCli(
        'contract',
        ['--spec', SPEC, '--base-url', servers[1]!.url],
        'recheck-strict',
      );
      const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
      expect(failedOf(run), tail).toEqual([]);
      expect(run.code, tail).toBe(0);
    }, 120_000);
  });
});
