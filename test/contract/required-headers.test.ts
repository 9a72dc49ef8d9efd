/**
 * A response that requires a header gets it from the mock on every answer, whatever produced the
 * answer: found by the corpus run on openbankingproject.ch, whose every response requires
 * X-Request-ID and whose own suite failed the mock on each of them (200, 202, 400, 405, 415).
 */
import { expect, it } from 'vitest';
import { find } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

it('the mock sends the required response headers of every answer, fixed suite and fuzz', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/required-headers.yaml',
    'required-headers',
    ['--fuzz', '3', '--seed', '5'],
  );
  for (const op of ['getPayment', 'cancelPayment'])
    expect(find(run, op, 'headers')?.status, tail).toBe('passed');
  // The answers judged include the success, refusals and a wrong method's 405 (with no body).
  const statuses = new Set(run.result!.results.flatMap((r) => r.exchanges.map((e) => e.status)));
  for (const s of [200, 400, 405]) expect(statuses, tail).toContain(s);
});
