/**
 * Real public descriptions shipped in npm packages (@readme/oas-examples) and the odd-but-valid
 * fixture: every kind of output generates and the whole lot type-checks in one compiler run.
 * A compile error is reported with the tree and the template kind that produced the file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { realTrees, type RealTrees, type TreeResult } from './real-trees.ts';

/** This file's names for trees of real-trees.ts (which real-descriptions.test.ts shares). */
const SPECS: Record<string, string> = {
  'petstore-30': '3.0-petstore',
  'uspto-30': '3.0-uspto',
  'petstore-31': '3.1-petstore',
  'star-trek-30': '3.0-star-trek',
  // discriminator mappings by bare schema name
  'discriminators-30': '3.0-discriminators',
  // 3.1 without a single path (webhooks only): the output must still compile.
  'webhooks-31': '3.1-webhooks',
  odd: 'odd',
  split: 'split',
};

// Generated once per test run, with one tsc run over every tree (see real-trees.ts).
let trees: RealTrees;
beforeAll(async () => {
  trees = await realTrees();
}, 600_000);

function result(name: string): TreeResult {
  const r = trees.results[SPECS[name]!];
  if (!r) throw new Error(`${name}: not generated`);
  if ('error' in r) throw new Error(r.error);
  return r;
}

/** tsc's `file(line,col): error TS...` lines grouped by tree and template kind. */
function errorsByTree(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const { tsc } = trees;
  for (const line of (tsc.stdout + tsc.stderr).split('\n')) {
    const m = /real-trees-[^/]+\/([^/]+)\/([^/(]+)[^(]*\(\d+,\d+\): error/.exec(line);
    if (!m) continue;
    const key = `${m[1]} ${m[2]}`;
    out.set(key, [...(out.get(key) ?? []), line.replace(/^.*?real-trees-[^/]+\//, '')]);
  }
  return out;
}

describe('third-party descriptions', () => {
  for (const name of Object.keys(SPECS)) {
    it(`${name}: generates every kind of output`, () => {
      const r = result(name);
      if (name !== 'webhooks-31') expect(r.operations).toBeGreaterThan(0);
      const kinds = new Set(r.files.map((f) => f.split('/')[0]));
      const perOperation = r.operations > 0 ? ['contract-tests'] : [];
      for (const kind of ['client', 'server', 'mock', ...perOperation, 'types.ts', 'model.ts'])
        expect(kinds, kind).toContain(kind);
    });
  }

  it('all of the generated code type-checks', () => {
    const errors = errorsByTree();
    // Names each failing tree and template kind (client, server, mock, contract-tests, ...).
    expect(Object.fromEntries([...errors].map(([k, v]) => [k, v.slice(0, 3)]))).toEqual({});
    expect(trees.tsc.stdout + trees.tsc.stderr).toBe('');
    expect(trees.tsc.code).toBe(0);
  });

  it('operations without operationId, tags or envelopes are plain JSON operations', () => {
    expect(result('uspto-30').model!.every((o) => !o.envelope)).toBe(true);
    const star = result('star-trek-30').model!;
    expect(star.length).toBe(120);
    const ids = star.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
