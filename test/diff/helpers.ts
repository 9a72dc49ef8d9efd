/** Shared helpers of the diff tests: the fixture base, head files made from it, pointers. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { parse, stringify } from 'yaml';
import { ROOT } from '../generator/helpers.ts';
import { removeWork } from '../work.ts';

export { ROOT };
export const FIXTURES = path.join(ROOT, 'test/fixtures/diff');
export const BASE = path.join(FIXTURES, 'base.yaml');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any;

/**
 * A fresh temporary folder of one test file's own, removed after the file (KEEP_WORK=1 keeps it).
 * Called while the file is collected, so that the removal is the file's own afterAll.
 */
export function scratch(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `dataapi-diff-${name}-`));
  afterAll(() => removeWork(dir));
  return dir;
}

export const baseDoc = (): Doc => parse(readFileSync(BASE, 'utf8'));

/** Writes the base with `mutate` applied as a new YAML file; returns its path. */
export function headFile(dir: string, name: string, mutate: (d: Doc) => void): string {
  const doc = baseDoc();
  mutate(doc);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(doc, { lineWidth: 0 }));
  return file;
}

/** A JSON pointer from unescaped tokens. */
export const ptr = (...tokens: string[]) =>
  tokens.map((t) => '/' + t.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
