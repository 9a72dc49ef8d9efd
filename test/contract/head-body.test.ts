/**
 * An answer to HEAD has no body (RFC 9110 §9.3.2), whatever media type the description declares
 * for it: found by the corpus run on Azure's "get entity tag" operations, where the suite asked a
 * JSON body of the 401 to a HEAD request and blamed the target for an empty one.
 */
import { expect, it } from 'vitest';
import { find } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

it('a HEAD operation declaring JSON answers: content types checked, no body asked', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/head-json.yaml',
    'head-json',
  );
  expect(find(run, 'cacheEntityTag', 'content-type')?.status, tail).toBe('passed');
  // The key probes were answered (401), so the check had answers without bodies to judge.
  const statuses = run.result!.results.flatMap((r) => r.exchanges.map((e) => e.status));
  expect(statuses).toContain(401);
});
