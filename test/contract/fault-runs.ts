/**
 * Runs the generated suite (through the real CLI, harness.ts) against a proxy in front of the
 * conforming mock that breaks one thing per operation, and checks that each break is reported by
 * the right check of the right operation. Shared by the files that prove the suite catches
 * violations (violations.test.ts, response-time.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMockServer } from '../../generated/mock/index.ts';
import { find, failedOf, KEY, runCli, type CliRun } from './harness.ts';
import { startProxy, type Fault } from './proxy.ts';

export interface Case {
  name: string;
  operation: string;
  check: string;
  variant?: 'main' | 'preview';
  fault: Fault;
  /** Extra assertion on the failed result. */
  detail?: (r: NonNullable<ReturnType<typeof find>>) => void;
}

export const hasKey = (q: URLSearchParams) => q.has('appkey');
export const ok = (s: number) => s >= 200 && s < 300;
export const json = (text: string) => Buffer.from(text);

/**
 * Starts the test file's conforming mock and gives the function that declares one group: one CLI
 * run through a proxy with the cases' faults, a test that the run fails without showing the key,
 * and one test per case.
 */
export function faultRuns(): (title: string, cases: Case[], extraArgs: string[]) => void {
  let mock: FastifyInstance;
  let upstream: string;

  // The groups' runs start together with the file (they mostly wait on a hung route's timeouts and
  // on rate-limit windows); each group's tests wait for its own.
  const starts: (() => void)[] = [];
  beforeAll(async () => {
    mock = await createMockServer({ appkeys: [KEY] });
    await mock.listen({ port: 0, host: '127.0.0.1' });
    upstream = `http://127.0.0.1:${(mock.server.address() as { port: number }).port}`;
    for (const start of starts) start();
  });
  afterAll(async () => {
    await mock?.close();
  });

  return function group(title: string, cases: Case[], extraArgs: string[]) {
    let running: Promise<CliRun> | undefined;
    starts.push(() => {
      running = (async () => {
        const proxy = await startProxy(
          upstream,
          cases.map((c) => c.fault),
        );
        const only = [...new Set(cases.map((c) => c.operation))].join(',');
        // The proxy goes once its run has ended.
        return runCli(
          'contract',
          // The toolkit's default timeout (the harness gives other runs a longer one): the hung
          // route never answers, so it fires whatever the machine's speed, and no other
          // operation's answer is held to a short limit.
          ['--base-url', proxy.url, '--only', only, '--timeout', '10000', ...extraArgs],
          title.replace(/\W+/g, '-'),
        ).finally(() => proxy.close());
      })();
      running.catch(() => undefined); // awaited by the group's beforeAll
    });
    describe(title, () => {
      let run: CliRun;
      beforeAll(async () => {
        run = await running!;
      }, 300_000); // a safety net for a hung run, not a speed limit

      it('fails the run (exit 1) and never shows the key', () => {
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout + run.stderr + JSON.stringify(run.result)).not.toContain(KEY);
      });
      for (const c of cases)
        it(`${c.operation}: ${c.name} -> ${c.check} (${c.variant ?? 'main'})`, () => {
          const r = find(run, c.operation, c.check, c.variant ?? 'main');
          expect(r, failedOf(run).join('\n')).toBeDefined();
          expect(r!.status, JSON.stringify(r, null, 1).slice(0, 2000)).toBe('failed');
          expect(r!.request?.method).toMatch(/^[A-Z]+$/);
          expect(r!.expected).toBeTruthy();
          c.detail?.(r!);
        });
    });
  };
}
