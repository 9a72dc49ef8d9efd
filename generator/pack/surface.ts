/**
 * The public surface of a packed client, read from its declarations with the TypeScript compiler:
 * the names the package exports and the methods of its `Client`. Comparing two surfaces finds a
 * name a consumer imports or calls that is gone.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Surface {
  exports: string[];
  /** Members of the exported `Client` type (one method per operation, `submitAndWait`, ...). */
  client: string[];
}

/** The surface of the package in `dir` (its ES module declarations). */
export function surfaceOf(dir: string): Surface {
  const entry = path.join(dir, 'dist', 'esm', 'index.d.ts');
  if (!existsSync(entry)) throw new Error(`${entry}: no declarations`);
  const program = ts.createProgram([entry], {
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return { exports: [], client: [] };
  const exported = checker.getExportsOfModule(moduleSymbol);
  const client = exported.find((s) => s.name === 'Client');
  const clientType = client ? checker.getDeclaredTypeOfSymbol(client) : undefined;
  return {
    exports: exported.map((s) => s.name).sort(),
    client: clientType
      ? checker
          .getPropertiesOfType(clientType)
          .map((p) => p.name)
          .sort()
      : [],
  };
}

export interface SurfaceBreak {
  kind: 'export' | 'client method';
  name: string;
  /** Whether the description removed it (an operation removed), or the toolkit did. */
  cause: 'description' | 'toolkit';
}

/** Names BASE's package offers that HEAD's does not, each with what removed it. */
export function surfaceBreaks(
  base: Surface,
  head: Surface,
  removedOperations: string[],
): SurfaceBreak[] {
  const byDescription = new Set(removedOperations);
  const lost = (a: string[], b: string[]) => a.filter((n) => !b.includes(n));
  const cause = (n: string): SurfaceBreak['cause'] =>
    byDescription.has(n) ? 'description' : 'toolkit';
  return [
    ...lost(base.exports, head.exports).map((name) => ({
      kind: 'export' as const,
      name,
      cause: cause(name),
    })),
    ...lost(base.client, head.client).map((name) => ({
      kind: 'client method' as const,
      name,
      cause: cause(name),
    })),
  ];
}
