/**
 * Real descriptions written by others: every one of @readme/oas-examples (3.0 and 3.1, made to
 * exercise OpenAPI's corners: circular refs, refs into paths, discriminators, callbacks, webhooks,
 * odd parameter styles) and the four in test/fixtures/third-party (museum, Twilio Verify, Adyen
 * Management, Box) generate every kind of output, and the whole lot type-checks in one compiler
 * run, as a project that imports the runtime's declaration files would check it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, realTrees, THIRD_PARTY, type RealTrees } from './real-trees.ts';

const SPECS = [...EXAMPLES, ...THIRD_PARTY];

// Generated once per test run and shared with third-party.test.ts (see real-trees.ts).
let trees: RealTrees;
beforeAll(async () => {
  trees = await realTrees();
}, 600_000);

describe('real descriptions written by others', () => {
  it('has the descriptions this test is about', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(50);
    expect(THIRD_PARTY.map(([name]) => name)).toEqual([
      'adyen-management-v3',
      'box',
      'museum',
      'twilio-verify-v2',
    ]);
  });

  it('every description generates', () => {
    const failed = SPECS.flatMap(([name]) => {
      const r = trees.results[name];
      return !r ? [[name, 'not generated']] : 'error' in r ? [[name, r.error]] : [];
    });
    expect(Object.fromEntries(failed)).toEqual({});
  });

  it('all of the generated code type-checks', () => {
    // `<tree>/<file>(line,col): error TS...`, one line per error, named by description.
    const { tsc } = trees;
    const errors = (tsc.stdout + tsc.stderr)
      .split('\n')
      .filter((l) => /\): error TS/.test(l))
      .map((l) => l.replace(/^.*?real-trees-[^/]+\//, ''));
    expect(errors.slice(0, 10)).toEqual([]);
    expect(tsc.code).toBe(0);
  });
});
