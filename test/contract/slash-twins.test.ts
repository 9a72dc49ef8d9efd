/**
 * Trailing-slash twins beside longer templates (corpus amazonaws.com/backup): the wrong-method
 * probe `POST /backup-jobs/` reached `POST /backup-jobs/{backupJobId}` with an empty id (200, no
 * content type) and `POST /backup/plans/` reached `updateBackupPlan` (400: body required), where
 * the path's own 405 is due. The router matched an empty path parameter; the twins themselves
 * (`/backup-jobs` and `/backup-jobs/`) were never confused.
 */
import { expect, it } from 'vitest';
import { find } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

it('a wrong method on a trailing-slash path is its 405, not a longer template with an empty id', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/slash-twins.yaml',
    'slash-twins',
  );
  for (const op of ['listBackupJobs', 'listBackupPlans', 'startBackupJob']) {
    expect(find(run, op, 'method-path')?.status, `${op}\n${tail}`).toBe('passed');
    expect(find(run, op, 'content-type')?.status, `${op}\n${tail}`).toBe('passed');
  }
  const wrong = run
    .result!.results.filter((r) => r.operation === 'listBackupJobs')
    .flatMap((r) => r.exchanges)
    .find((e) => /^wrong method/.test(e.request.purpose));
  expect(wrong?.status, tail).toBe(405);
});
