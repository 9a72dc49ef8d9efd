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
 * The tree's check as a run asks for it: not run when the tree's key (the toolkit's key, the
 * output folder, its TypeScript files) is the one `last.recorded`, else treeTypeErrors. The parse
 * trees in `parsed` are used and then dropped.
 */
export function checkTree(
  files: { path: string; content: string }[],
  where: { outDir: string; projectRoot: string },
  last: { toolkit: string; recorded?: string },
  parsed: Map<string, import('typescript').SourceFile>,
): { how: 'checked' | 'cached'; key: string; errors?: string };
