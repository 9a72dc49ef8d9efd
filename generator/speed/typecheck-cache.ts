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
  // Read together: one by one, each read would wait for a turn of a busy main thread.
  const sorted = files.sort();
  const contents = await Promise.all(sorted.map((f) => readFile(f).catch(() => undefined)));
  for (const [i, file] of sorted.entries()) {
    const content = contents[i];
    hash.update(`${path.relative(projectRoot, file)}\0${content ? sha(content) : '-'}\0`);
  }
  return hash.digest('hex');
}

/**
 * What the tree's check is compared with (its key is made where the tree is: the worker,
 * typecheck-tree.mjs `treeKey`): the toolkit's key, and the key this output folder's last checked
 * run recorded, if any.
 */
export async function lastChecked(
  projectRoot: string,
  outDir: string,
): Promise<{ toolkit: string; recorded?: string }> {
  const [toolkitHash, text] = await Promise.all([
    (toolkit ??= toolkitKey(projectRoot)),
    readFile(recordFile(projectRoot, outDir), 'utf8').catch(() => undefined),
  ]);
  let recorded: unknown;
  try {
    recorded = text === undefined ? undefined : (JSON.parse(text) as { key?: unknown }).key;
  } catch {
    // a damaged record: the tree is checked
  }
  return { toolkit: toolkitHash, ...(typeof recorded === 'string' ? { recorded } : {}) };
}

/** The record matched this run's tree: kept over records used less. */
export function usedRecord(projectRoot: string, outDir: string): void {
  touchCached(recordFile(projectRoot, outDir));
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
