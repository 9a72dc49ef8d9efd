/**
 * The packed client's `.d.ts` files, through the TypeScript compiler API: the stage (entry and
 * openapi-typescript's types, kept in memory) and the runtime sources it imports are type-checked
 * and their declarations emitted; every module specifier is then pointed at the package's own
 * files (`./x.ts` and `dataapi/...` become relative `.js` / `.cjs` paths). Declarations of the
 * runtime's kept dependencies (openapi-fetch and its helpers) are copied under `vendor/`.
 * Anything else a declaration reaches (Ajv, Node's types, ...) fails the pack: the consumer
 * would not have it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';
import { resolveImport } from '../resolve-import.mjs';
import { fromSources, typeRootsFrom } from './package-dir.ts';
import { keptDeclarations, type Declarations } from './declarations-kept.ts';
import { PackError } from './errors.ts';

const require = createRequire(import.meta.url);

/** Packages whose declarations the client may carry (the runtime's kept dependencies). */
const VENDORED = new Set(['openapi-fetch', 'openapi-typescript-helpers']);

export interface DeclarationInput {
  /** The toolkit's root: runtime and model sources are read from here. */
  root: string;
  /** In-memory stage files by name relative to the stage (index.ts, types.ts). */
  stage: Map<string, string>;
}

/** Declarations by package path without extension (`index`, `lib/runtime/client/client`). */
export type { Declarations };

const STAGE = '.dataapi-pack-stage';

function compilerOptions(ts: typeof TS, root: string): TS.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    // In this repository `dataapi/...` resolves to the sources (package.json exports) and their
    // declarations are emitted; an installed toolkit has its declarations in dist/.
    ...(fromSources(root) ? { customConditions: ['dataapi-source'] } : {}),
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    // Node's types for the Node-only reader; a declaration that needed them would fail below.
    types: ['node'],
    typeRoots: typeRootsFrom(root),
    strict: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: root,
    outDir: path.join(root, '.dataapi-pack-out'),
  };
}

/** A compiler host that also sees the in-memory stage and keeps what is emitted in memory. */
function stagedHost(
  ts: typeof TS,
  options: TS.CompilerOptions,
  root: string,
  virtual: Map<string, string>,
): { host: TS.CompilerHost; emitted: Map<string, string> } {
  const stageDir = path.join(root, STAGE);
  const host = ts.createCompilerHost(options, true);
  host.getCurrentDirectory = () => root;
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.getSourceFile = (f, lang, ...rest) => {
    const text = virtual.get(path.resolve(f));
    return text !== undefined
      ? ts.createSourceFile(f, text, lang, true)
      : getSourceFile.call(host, f, lang, ...rest);
  };
  host.fileExists = (f) => virtual.has(path.resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(path.resolve(f)) ?? readFile.call(host, f);
  host.directoryExists = (d) =>
    path.resolve(d) === stageDir || (directoryExists?.call(host, d) ?? true);
  const emitted = new Map<string, string>();
  host.writeFile = (f, text) => emitted.set(path.resolve(f), text);
  return { host, emitted };
}

/** Type-checks the stage and what it imports, then emits their declarations (into `emitted`). */
function checkAndEmit(ts: typeof TS, program: TS.Program, root: string): void {
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0)
    throw new PackError(
      `the client does not type-check:\n${ts.formatDiagnostics(errors.slice(0, 10), {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => root,
        getNewLine: () => '\n',
      })}`,
    );
  program.emit();
}

type Located = { key: string; text: string };

/** Where a source's declaration lives in the package, and its text (undefined: not ours to ship). */
function locator(
  ts: typeof TS,
  root: string,
  outDir: string,
  emitted: Map<string, string>,
): (file: string) => Located | undefined {
  return (file) => {
    const resolved = path.resolve(file);
    const rel = path.relative(root, resolved).split(path.sep).join('/');
    // Outside the toolkit's own files, by the last node_modules of the absolute path: an
    // installed toolkit's openapi-fetch sits beside it, not inside.
    const ours = !rel.startsWith('..') && !/(?:^|\/)node_modules\//.test(rel);
    const vendored = ours
      ? null
      : /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(resolved.split(path.sep).join('/'));
    if (vendored) {
      if (!VENDORED.has(vendored[1] as string)) return undefined;
      const key = `vendor/${vendored[1]}/${(vendored[2] as string).replace(/\.d\.[cm]?ts$/, '')}`;
      return { key, text: ts.sys.readFile(resolved) ?? '' };
    }
    if (rel.startsWith('..')) return undefined;
    if (/^dist\/.*\.d\.ts$/.test(rel))
      return {
        key: `lib/${rel.slice('dist/'.length, -'.d.ts'.length)}`,
        text: ts.sys.readFile(resolved) ?? '',
      };
    const stem = rel.replace(/\.(d\.)?[cm]?tsx?$/, '');
    const text = emitted.get(path.join(outDir, `${stem}.d.ts`));
    if (text === undefined) return undefined;
    const key = stem.startsWith(`${STAGE}/`) ? stem.slice(STAGE.length + 1) : `lib/${stem}`;
    return { key, text };
  };
}

/** The declarations, kept from an earlier run that read the same (declarations-kept.ts) or emitted. */
export function emitDeclarations(input: DeclarationInput): {
  declarations: Declarations;
  kept: boolean;
} {
  const ts = require('typescript') as typeof TS;
  const stageDir = path.join(input.root, STAGE);
  const virtual = new Map([...input.stage].map(([rel, text]) => [path.join(stageDir, rel), text]));
  const options = compilerOptions(ts, input.root);
  return keptDeclarations(ts, input.root, options, virtual, (record) =>
    computeDeclarations(ts, input, options, virtual, record),
  );
}

function computeDeclarations(
  ts: typeof TS,
  input: DeclarationInput,
  options: TS.CompilerOptions,
  virtual: Map<string, string>,
  record: (host: TS.CompilerHost) => void,
): Declarations {
  const stageDir = path.join(input.root, STAGE);
  const { host, emitted } = stagedHost(ts, options, input.root, virtual);
  record(host);
  checkAndEmit(ts, ts.createProgram([...virtual.keys()], options, host), input.root);
  const locate = locator(ts, input.root, options.outDir as string, emitted);
  // From the entry, every declaration it reaches, with its specifiers pointed into the package.
  const result: Declarations = new Map();
  const queue = [path.join(stageDir, 'index.ts')];
  const done = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (done.has(file)) continue;
    done.add(file);
    const found = locate(file);
    if (!found) throw new PackError(`no declaration for ${path.relative(input.root, file)}`);
    if (/\/\/\/\s*<reference\s+(types|lib)=/.test(found.text))
      throw new PackError(
        `${found.key}.d.ts needs ambient types (a /// <reference>): the client would depend on them`,
      );
    const rewritten = rewriteSpecifiers(ts, found.text, (spec) => {
      const target = resolveImport(ts, spec, file, options, host);
      const located = target ? locate(target) : undefined;
      if (!target || !located)
        throw new PackError(
          `${found.key}.d.ts refers to ${JSON.stringify(spec)}, which the client package would not have`,
        );
      queue.push(path.resolve(target));
      return `${MARK}${located.key}${MARK}`;
    });
    result.set(found.key, rewritten);
  }
  return new Map([...result].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Replaces every module specifier of a declaration file (imports, exports, import types). */
function rewriteSpecifiers(
  ts: typeof TS,
  text: string,
  map: (specifier: string) => string,
): string {
  const file = ts.createSourceFile('x.d.ts', text, ts.ScriptTarget.ES2022, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: TS.Node): void => {
    let literal: TS.Node | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      literal = node.moduleSpecifier;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      literal = node.argument.literal;
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name))
      throw new PackError(
        `declare module ${node.name.text} in a declaration file is not supported`,
      );
    if (literal && ts.isStringLiteral(literal))
      edits.push({
        start: literal.getStart(file),
        end: literal.getEnd(),
        text: `'${map(literal.text)}'`,
      });
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Brackets a target's package key in a specifier until the writer knows where it is written. */
const MARK = '\u0000';

/**
 * Pure type files (openapi-typescript's output, vendored declarations) are written once, in
 * `dist/types/` with a package.json that makes them CommonJS-format: both the ES module and the
 * CommonJS declarations may import types from there. Everything else is written per flavour.
 */
const isShared = (key: string) => key === 'types' || key.startsWith('vendor/');

function locationOf(key: string, flavour: 'esm' | 'cjs'): string {
  if (isShared(key)) return `dist/types/${key}.d.ts`;
  return `dist/${flavour}/${key}${flavour === 'esm' ? '.d.ts' : '.d.cts'}`;
}

/** The declaration files by package path: `.d.ts` under dist/esm, `.d.cts` under dist/cjs, shared types. */
export function declarationFiles(declarations: Declarations): Map<string, string> {
  const out = new Map<string, string>();
  for (const flavour of ['esm', 'cjs'] as const) {
    for (const [key, text] of declarations) {
      const at = locationOf(key, flavour);
      if (out.has(at)) continue;
      const resolved = text.replace(/\u0000([^\u0000]*)\u0000/g, (_m, target: string) => {
        const to = locationOf(target, flavour).replace(
          /\.d\.(c?)ts$/,
          (_x, c: string) => `.${c}js`,
        );
        const rel = path.posix.relative(path.posix.dirname(at), to);
        return rel.startsWith('.') ? rel : `./${rel}`;
      });
      out.set(at, resolved);
    }
  }
  out.set('dist/types/package.json', `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
