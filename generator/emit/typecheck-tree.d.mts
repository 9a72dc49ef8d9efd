/**
 * The first type errors of a generated tree (paths relative to `outDir`), checked in memory with
 * its package imports resolved from the toolkit's folder; undefined when it type-checks.
 */
export function treeTypeErrors(
  files: { path: string; content: string }[],
  where: { outDir: string; projectRoot: string },
): string | undefined;
