/**
 * The type-check's record, as `tsc --incremental` or ESLint's `--cache` keep theirs: a tree whose
 * TypeScript files are byte for byte those of a tree that type-checked before, with the same
 * toolkit (the runtime whose declarations they import, the check's own settings, the lockfile:
 * the compiler's and the imported packages' versions), type-checks again. Such a tree is not
 * checked twice; anything else is: a changed template, description or runtime changes the key.
 *
 * One record per output folder, in node_modules/.cache/dataapi/typecheck/ beside the stamp (not
 * in the output: generated/ stays a function of the spec and templates alone).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { keepCached, touchCached } from './toolkit-cache.ts';

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The folder of the records (the benchmarks empty it to time the first run of a tree). */
export const typecheckCacheDir = (projectRoot: string) =>
  path.join(projectRoot, 'node_modules', '.cache', 'dataapi', 'typecheck');

const recordFile = (projectRoot: string, outDir: string) =>
  path.join(typecheckCacheDir(projectRoot), `${sha(path.resolve(outDir)).slice(0, 16)}.json`);

/** What the check's verdict depends on besides the tree: hashed once per process. */
let toolkit: Promise<string> | undefined;

async function toolkitKey(projectRoot: string): Promise<string> {
  const hash = createHash('sha256').update('dataapi-typecheck-1\0');
  const files: string[] = [];
  // The runtime as sources (this repository) and as built declarations (an installed toolkit),
  // and the check itself (its compiler options).
  for (const dir of ['runtime', 'dist/runtime', 'generator/emit', 'dist/generator/emit']) {
    const abs = path.join(projectRoot, dir);
    const found = await readdir(abs, { recursive: true }).catch(() => [] as string[]);
    files.push(...found.filter((f) => /\.(ts|mts|mjs)$/.test(f)).map((f) => path.join(abs, f)));
  }
  files.push(path.join(projectRoot, 'package-lock.json'));
  for (const file of files.sort()) {
    const content = await readFile(file).catch(() => undefined);
    hash.update(`${path.relative(projectRoot, file)}\0${content ? sha(content) : '-'}\0`);
  }
  return hash.digest('hex');
}

/** The key of this tree's check: its TypeScript files (as checked) and the toolkit. */
export async function typecheckKey(
  files: { path: string; content: string }[],
  where: { outDir: string; projectRoot: string },
): Promise<string> {
  const hash = createHash('sha256');
  hash.update(
    `${await (toolkit ??= toolkitKey(where.projectRoot))}\0${path.resolve(where.outDir)}\0`,
  );
  const ts = files.filter((f) => /\.(ts|mts)$/.test(f.path));
  for (const f of ts.sort((a, b) => (a.path < b.path ? -1 : 1)))
    hash.update(`${f.path}\0${sha(f.content)}\0`);
  return hash.digest('hex');
}

/** Whether a tree with this key type-checked in this output folder's last checked run. */
export async function checkedBefore(key: string, projectRoot: string, outDir: string) {
  const text = await readFile(recordFile(projectRoot, outDir), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  try {
    const same = (JSON.parse(text) as { key?: unknown }).key === key;
    if (same) touchCached(recordFile(projectRoot, outDir)); // used: kept over records used less
    return same;
  } catch {
    return false;
  }
}

/** Records a tree that type-checked; only the records written or used last are kept (KEPT_RECORDS). */
export async function recordChecked(key: string, projectRoot: string, outDir: string) {
  keepCached(recordFile(projectRoot, outDir), JSON.stringify({ version: 1, key }), KEPT_RECORDS);
}

/**
 * Records kept at most: one per output folder, so temporary output folders would otherwise add
 * one per run, forever. A pruned record only costs that folder's next run its check.
 */
export const KEPT_RECORDS = 256;
