/**
 * Query objects as AWS query-protocol descriptions declare them (corpus amazonaws.com/
 * cloudformation and ec2): form style, exploded, with lists and objects inside, and property
 * names other parameters write too. The suite, the fuzz run and the mock agree on one writing
 * (nested values as JSON text, clashing properties not sent): no failure, no toolkit fault, and
 * the clashes are the description's finding.
 */
import { expect, it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('query objects with nested lists round-trip; clashing property names are a finding', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/query-objects.yaml',
    'query-objects',
    ['--fuzz', '8', '--seed', '3'],
  );
  const clashes = (run.result!.warnings ?? []).filter((w) => w.code === 'query-name-clash');
  expect(clashes.length, tail).toBe(2);
  const named = clashes
    .flatMap((c) => [...c.message.matchAll(/(\w+\.\w+) \(written as/g)])
    .map((m) => m[1]);
  expect(named.sort()).toEqual([
    'ClientConnectOptions.Enabled',
    'ConnectionLogOptions.Enabled',
    'DeploymentTargets.Accounts',
    'InputStorageLocation.Bucket',
    'InputStorageLocation.Key',
    'LogsStorageLocation.Bucket',
    'LogsStorageLocation.Key',
  ]);
});
