/**
 * Headers Node's fetch writes itself (User-Agent, Accept-Language, ...): found by the corpus run on
 * mineskin.org, where "User-Agent missing" was sent as a negative case (fetch added one, the mock
 * rightly took it: 23 toolkit faults), and zalando.com, where a valid request left Accept-Language
 * to fetch's `*`, which its enum refuses (every valid request failed with 400).
 */
import { expect, it } from 'vitest';
import type { ContractReport } from '../../contract-tests/reports/report.ts';
import { find } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

it('no missing case for a header fetch always sends, and a valid value where its own is not', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/fetch-headers.yaml',
    'fetch-headers',
    ['--fuzz', '3', '--seed', '5'],
  );
  expect(find(run, 'listSkins', 'status')?.status, tail).toBe('passed');
  expect(find(run, 'listSkins', 'negative')?.status, tail).toBe('passed');
  const purposes = run.result!.results.flatMap((r) => r.exchanges.map((e) => e.request.purpose));
  expect(
    purposes.filter((p) => /User-Agent missing/.test(p)),
    tail,
  ).toEqual([]);
  // Said where the suite lists what it did not exercise.
  const report = run.result as unknown as ContractReport; // the results file is the report
  expect(report.coverageReport.notExercised?.absentHeaders).toEqual([
    'listSkins header User-Agent missing',
  ]);
  expect(run.stdout).toMatch(
    /not exercised: 1 required header\(s\) left out .*listSkins header User-Agent missing/,
  );
});
