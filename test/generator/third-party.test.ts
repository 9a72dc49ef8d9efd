/**
 * Real public descriptions shipped in npm packages (@readme/oas-examples) and the odd-but-valid
 * fixture: every kind of output generates and the whole lot type-checks in one compiler run.
 * A compile error is reported with the tree and the template kind that produced the file.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../generator/generate.ts';
import { cleanup, FIXTURES, OAS_EXAMPLES, scratch, typecheck, type Run } from './helpers.ts';

const SPECS: Record<string, string> = {
  'petstore-30': path.join(OAS_EXAMPLES, '3.0/json/petstore.json'),
  'uspto-30': path.join(OAS_EXAMPLES, '3.0/json/uspto.json'),
  'petstore-31': path.join(OAS_EXAMPLES, '3.1/json/petstore.json'),
  'star-trek-30': path.join(OAS_EXAMPLES, '3.0/json/star-trek.json'),
  // discriminator mappings by bare schema name
  'discriminators-30': path.join(OAS_EXAMPLES, '3.0/json/discriminators.json'),
  // 3.1 without a single path (webhooks only): the output must still compile.
  'webhooks-31': path.join(OAS_EXAMPLES, '3.1/json/webhooks.json'),
  odd: path.join(FIXTURES, 'generator-odd.yaml'),
  split: path.join(FIXTURES, 'generator-split/openapi.yaml'),
};

let base: string;
const results = new Map<string, GenerateResult | Error>();
let tsc: Run;

beforeAll(async () => {
  base = await scratch('third-party', true);
  for (const [name, spec] of Object.entries(SPECS)) {
    results.set(
      name,
      await generate({
        spec,
        out: path.join(base, name),
        force: true,
        typecheck: false,
        typescriptWorker: false, // TypeScript loaded once for the eight runs
      }).catch((e: unknown) => e as Error),
    );
  }
  // The runtime through its declaration files (dist/), as another project reads it: its sources
  // are type-checked by `npm test`'s tsc, and checking them again here took most of this run.
  tsc = await typecheck(base, true);
}, 300_000);

afterAll(() => cleanup(base));

/** tsc's `file(line,col): error TS...` lines grouped by tree and template kind. */
function errorsByTree(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of (tsc.stdout + tsc.stderr).split('\n')) {
    const m = /generator-third-party-\d+\/([^/]+)\/([^/(]+)[^(]*\(\d+,\d+\): error/.exec(line);
    if (!m) continue;
    const key = `${m[1]} ${m[2]}`;
    out.set(key, [...(out.get(key) ?? []), line.replace(/^.*?generator-third-party-\d+\//, '')]);
  }
  return out;
}

describe('third-party descriptions', () => {
  for (const name of Object.keys(SPECS)) {
    it(`${name}: generates every kind of output`, () => {
      const r = results.get(name);
      if (r instanceof Error) throw r;
      if (name !== 'webhooks-31') expect(r!.operations).toBeGreaterThan(0);
      const kinds = new Set(r!.files.map((f) => f.path.split('/')[0]));
      const perOperation = r!.operations > 0 ? ['contract-tests'] : [];
      for (const kind of ['client', 'server', 'mock', ...perOperation, 'types.ts', 'model.ts'])
        expect(kinds, kind).toContain(kind);
    });
  }

  it('all of the generated code type-checks', () => {
    const errors = errorsByTree();
    // Names each failing tree and template kind (client, server, mock, contract-tests, ...).
    expect(Object.fromEntries([...errors].map(([k, v]) => [k, v.slice(0, 3)]))).toEqual({});
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it('operations without operationId, tags or envelopes are plain JSON operations', () => {
    const r = results.get('uspto-30') as GenerateResult;
    expect(r.model!.operations.every((o) => o.envelope === undefined)).toBe(true);
    const star = results.get('star-trek-30') as GenerateResult;
    expect(star.model!.operations.length).toBe(120);
    const ids = star.model!.operations.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
