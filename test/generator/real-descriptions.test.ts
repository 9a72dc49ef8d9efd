/**
 * Real descriptions written by others: every one of @readme/oas-examples (3.0 and 3.1, made to
 * exercise OpenAPI's corners: circular refs, refs into paths, discriminators, callbacks, webhooks,
 * odd parameter styles) and the four in test/fixtures/third-party (museum, Twilio Verify, Adyen
 * Management, Box) generate every kind of output, and the whole lot type-checks in one compiler
 * run, as a project that imports the runtime's declaration files would check it.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.ts';
import { cleanup, FIXTURES, OAS_EXAMPLES, scratch, typecheck, type Run } from './helpers.ts';

const EXAMPLES = ['3.0', '3.1'].flatMap((v) =>
  readdirSync(path.join(OAS_EXAMPLES, v, 'json'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [`${v}-${f.replace(/\.json$/, '')}`, path.join(OAS_EXAMPLES, v, 'json', f)]),
);
const THIRD_PARTY = readdirSync(path.join(FIXTURES, 'third-party'))
  .filter((f) => /\.(json|yaml)$/.test(f))
  .sort()
  .map((f) => [f.replace(/\.\w+$/, ''), path.join(FIXTURES, 'third-party', f)]);
const SPECS = [...EXAMPLES, ...THIRD_PARTY];

let base: string;
const failed = new Map<string, string>();
let tsc: Run;

beforeAll(async () => {
  base = await scratch('real-descriptions', true);
  for (const [name, spec] of SPECS) {
    await generate({
      spec: spec!,
      out: path.join(base, name!),
      force: true,
      typecheck: false,
      // TypeScript loaded once for the 61 runs, not once per run in a worker of its own.
      typescriptWorker: false,
    }).catch((e: unknown) => failed.set(name!, e instanceof Error ? e.message : String(e)));
  }
  // Another project's view: the runtime through its declaration files (npm's prepare).
  tsc = await typecheck(base, true);
}, 600_000);

afterAll(() => cleanup(base));

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
    expect(Object.fromEntries(failed)).toEqual({});
  });

  it('all of the generated code type-checks', () => {
    // `<tree>/<file>(line,col): error TS...`, one line per error, named by description.
    const errors = (tsc.stdout + tsc.stderr)
      .split('\n')
      .filter((l) => /\): error TS/.test(l))
      .map((l) => l.replace(/^.*?real-descriptions-\d+\//, ''));
    expect(errors.slice(0, 10)).toEqual([]);
    expect(tsc.code).toBe(0);
  });
});
