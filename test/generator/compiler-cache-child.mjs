// compiler-cache.test.ts's loads, each in a fresh process (a vitest worker may hold TypeScript
// already). Loads the compiler that <project>'s node_modules holds through compiler-cache.mjs, uses
// it (a parse and a print, and with "check" a type-check), keeps its code at that depth and prints
// one JSON line: what it was compiled from, and whether require() finds the same compiler.
//
// Usage: node test/generator/compiler-cache-child.mjs <project> parse|check
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  compilerCodeStatus,
  keepCompilerCode,
  preloadCompiler,
} from '../../generator/speed/compiler-cache.mjs';

const [project, depth] = process.argv.slice(2);
const from = createRequire(path.join(project, 'index.js'));
preloadCompiler(from);
const status = compilerCodeStatus();
const ts = from('typescript');
const source = ts.createSourceFile('a.ts', 'export const a: number = 1;\n', ts.ScriptTarget.ES2022);
const printed = ts.createPrinter().printFile(source);
let diagnostics = -1;
if (depth === 'check') {
  const program = ts.createProgram({
    rootNames: [],
    options: { noLib: true },
  });
  diagnostics = program.getGlobalDiagnostics().length;
}
keepCompilerCode(depth);
process.stdout.write(
  `${JSON.stringify({ ...status, printed, diagnostics, version: ts.version, viaRequire: from('typescript') === ts })}\n`,
);
