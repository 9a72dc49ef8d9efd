/**
 * A request schema no value satisfies (AssemblyAI: `additionalProperties: false` on the schema
 * and on each `allOf` part, so no part allows another's properties) on an operation with links.
 * The status check already blamed the description for the refused requests; the lifecycle check
 * failed the target ("no valid request succeeded"). It now warns as the status check does.
 */
import { describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite } from './helpers.ts';

describe('links from an operation whose request schema admits no value', () => {
  it('are not followed, with a warning on the description, and nothing fails', async () => {
    const { run, tail } = await ownSuite(fixture('unsatisfiable-links.yaml'));
    expectPassed(run, tail);
    const unsatisfiable = (run.result?.warnings ?? []).filter(
      (w) => w.code === 'unsatisfiable-schema' && w.operation === 'createTranscript',
    );
    expect(
      unsatisfiable.some((w) => w.message.includes('no link is followed')),
      tail,
    ).toBe(true);
  }, 120_000);
});
