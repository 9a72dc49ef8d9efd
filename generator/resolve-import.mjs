// Resolves an import specifier as TypeScript does for an ESM `import` (NodeNext rules, `.ts`
// extensions and the package's own `dataapi/...` exports included). Plain JavaScript so that
// scripts/check-imports.js, which runs before any TypeScript loader exists, shares it with the
// packer's declaration walk (generator/pack/declarations.ts).

/** The file `specifier` resolves to from `fromFile`, or undefined when it resolves to nothing. */
export function resolveImport(ts, specifier, fromFile, options, host) {
  // Every module here is ESM ("type": "module"): resolve as an `import`, exports included.
  return ts.resolveModuleName(
    specifier,
    fromFile,
    options,
    host,
    undefined,
    undefined,
    ts.ModuleKind.ESNext,
  ).resolvedModule?.resolvedFileName;
}
