import type * as TS from 'typescript';

/** The file `specifier` resolves to from `fromFile` (as an ESM import), or undefined. */
export declare function resolveImport(
  ts: typeof TS,
  specifier: string,
  fromFile: string,
  options: TS.CompilerOptions,
  host: TS.ModuleResolutionHost,
): string | undefined;
