/**
 * Checks known before any request to have nothing to judge (no envelope, no business code group,
 * no --max-response-time) are registered as skipped tests carrying their result: the reports list
 * them as before, skipped with the judge's own message, and a run that gives what they need
 * judges them.
 */
import { expect, it } from 'vitest';
import { find } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

const SPEC = 'test/fixtures/generality/head-json.yaml';

it('reports the checks skipped before any request with their reasons, and runs them when they apply', async () => {
  const { tail, ...run } = await cleanOnOwnMock(SPEC, 'static-skip', [
    '--reporter',
    'console,verbose',
  ]);
  const reasons = {
    envelope: 'plain JSON operation (no envelope)',
    'business-code': 'the operation has no business code group',
    'response-time': 'no --max-response-time given',
  } as const;
  for (const [check, message] of Object.entries(reasons))
    expect(find(run, 'cacheEntityTag', check as keyof typeof reasons), tail).toEqual({
      operation: 'cacheEntityTag',
      variant: 'main',
      check,
      durationMs: 0,
      waitedMs: 0,
      exchanges: [],
      status: 'skipped',
      message,
      errors: [],
    });
  expect(run.result!.summary.skipped, tail).toBeGreaterThanOrEqual(3);
  // vitest's own reporters show the reason too: `↓ <file> > <op> > <test> [reason]`.
  for (const [check, message] of Object.entries(reasons))
    expect(run.stdout, tail).toMatch(
      new RegExp(
        `↓ .*cacheEntityTag > ${check} \\(main\\).*\\[${message.replace(/[()]/g, '\\$&')}\\]`,
      ),
    );

  const timed = await cleanOnOwnMock(SPEC, 'static-skip-timed', ['--max-response-time', '600000']);
  expect(find(timed, 'cacheEntityTag', 'response-time')?.status, timed.tail).toBe('passed');
}, 300_000);
