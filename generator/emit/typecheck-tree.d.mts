/**
 * The first type errors of a generated tree (paths relative to `outDir`), checked in memory with
 * its package imports resolved from the toolkit's folder; undefined when it type-checks.
 * `parsed`: parse trees of these files already made (path -> tree), used when their text matches.
 * types.ts is checked like every other file.
 */
export function treeTypeErrors(
  files: { path: string; content: string }[],
  where: { outDir: string; projectRoot: string },
  parsed?: Map<string, import('typescript').SourceFile>,
): string | undefined;
/**
 * The key of a tree's check (generator/speed/typecheck-cache.ts): the toolkit's key, the output
 * folder and the tree's TypeScript files as checked.
 */
export function treeKey(
  toolkit: string,
  outDir: string,
  files: { path: string; content: string }[],
): string;
