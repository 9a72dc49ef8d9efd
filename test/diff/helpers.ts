/** Shared helpers of the diff tests: the fixture base, head files made from it, pointers. */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT, WORK } from '../generator/helpers.ts';

export { ROOT };
export const FIXTURES = path.join(ROOT, 'test/fixtures/diff');
export const BASE = path.join(FIXTURES, 'base.yaml');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any;

/** A fresh scratch folder for one test file (removed first). */
export function scratch(name: string): string {
  const dir = path.join(WORK, `diff-${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
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
