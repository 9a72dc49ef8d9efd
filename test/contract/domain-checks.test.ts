/**
 * The service's own domain checks stay on the service's operations (issue 26, class 9): a generic
 * upload whose answer has a `filename` field is not required to list the files sent (the mock
 * answers its example, which names a file of its own), so its lifecycle check does not fail.
 */
import { expect, it } from 'vitest';
import { find, reportDir, runCli } from './harness.ts';

it("does not hold another description's upload to the service's file-name echo", async () => {
  const run = await runCli(
    'contract',
    [
      '--spec',
      'test/fixtures/generality/generic-upload.yaml',
      '--report-dir',
      reportDir('domain-checks'),
    ],
    'domain-checks',
  );
  const lifecycle = find(run, 'uploadFile', 'lifecycle');
  expect(lifecycle?.status, lifecycle?.message).not.toBe('failed');
  expect(run.result?.errors).toEqual([]);
  expect(run.code, run.stdout.slice(-2000)).toBe(0);
}, 300_000);
