/**
 * The first type errors of a generated tree (paths relative to `outDir`), checked in memory with
 * its package imports resolved from the toolkit's folder; undefined when it type-checks.
 * `parsed`: parse trees of these files already made (path -> tree), used when their text matches.
 * types.ts is read as declarations: its own body is not checked.
 */
export function treeTypeErrors(
  files: { path: string; content: string }[],
  where: { outDir: string; projectRoot: string },
  parsed?: Map<string, import('typescript').SourceFile>,
): string | undefined;
