// The type-check of a whole generated tree before it is written (issue 26: generation fails when
// its own output does not compile). Plain JavaScript: it runs in the TypeScript worker thread,
// which starts without a loader (typed by typecheck-tree.d.mts).
//
// The tree is checked in memory, at the paths it is about to be written to, under the strict
// settings the README promises (strict, noUncheckedIndexedAccess, verbatimModuleSyntax). Its
// imports of packages (`dataapi/runtime/*`, `fastify`) resolve from the toolkit's own folder, not
// from the output folder: the check must not depend on where the tree is written or on what that
// project has installed. `bundler` resolution: the generated files import `./x.js`, which both
// `bundler` and `nodenext` accept, and `bundler` does not take the module format from the
// nearest package.json (a tree written into a scratch folder is not a CommonJS module).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
/** @type {typeof import('typescript') | undefined} */
let compiler;

/** Errors shown per failed tree: enough to see the fault, not a wall of text. */
const SHOWN = 5;

/** `/a/b/c` -> `/a/b/c`, `/a/b`, `/a`, `/`. */
function ancestors(dir) {
  const out = [dir];
  for (let d = path.dirname(dir); d !== out.at(-1); d = path.dirname(d)) out.push(d);
  return out;
}

const sha = (text) => createHash('sha256').update(text).digest('hex');

/**
 * The key of a tree's check (../speed/typecheck-cache.ts): the toolkit's key, the output folder
 * and the tree's TypeScript files as checked.
 * @param {string} toolkit
 * @param {string} outDir
 * @param {{ path: string; content: string }[]} files
 * @returns {string}
 */
function treeKey(toolkit, outDir, files) {
  const hash = createHash('sha256').update(`${toolkit}\0${path.resolve(outDir)}\0`);
  const ts = files.filter((f) => /\.(ts|mts)$/.test(f.path));
  for (const f of ts.sort((a, b) => (a.path < b.path ? -1 : 1)))
    hash.update(`${f.path}\0${sha(f.content)}\0`);
  return hash.digest('hex');
}

/**
 * The tree's check as a run asks for it: not run when the tree's key is the one the output
 * folder's last checked run recorded (`last.recorded`), else treeTypeErrors. The parse trees in
 * `parsed` are used and then dropped.
 * @param {{ path: string; content: string }[]} files
 * @param {{ outDir: string; projectRoot: string }} where
 * @param {{ toolkit: string; recorded?: string }} last
 * @param {Map<string, import('typescript').SourceFile>} parsed
 * @returns {{ how: 'checked' | 'cached'; key: string; errors?: string }}
 */
export function checkTree(files, where, last, parsed) {
  try {
    const key = treeKey(last.toolkit, where.outDir, files);
    if (key === last.recorded) return { how: 'cached', key };
    const errors = treeTypeErrors(files, where, parsed);
    return { how: 'checked', key, ...(errors ? { errors } : {}) };
  } finally {
    parsed.clear();
  }
}

/**
 * The first type errors of the generated tree, as one message naming each file and line, or
 * undefined when it type-checks.
 * @param {{ path: string; content: string }[]} files the tree, paths relative to `outDir`
 * @param {{ outDir: string; projectRoot: string }} where
 * @param {Map<string, import('typescript').SourceFile>} [parsed] parse trees already made
 * @returns {string | undefined}
 */
export function treeTypeErrors(files, { outDir, projectRoot }, parsed = new Map()) {
  const ts = (compiler ??= require('typescript'));
  const out = path.resolve(outDir);
  const virtual = new Map(files.map((f) => [path.join(out, f.path), f.content]));
  const roots = [...virtual.keys()].filter((f) => /\.(ts|mts)$/.test(f));
  // From sources without a build (the toolkit's own tests), the runtime is read as TypeScript.
  const built = existsSync(path.join(projectRoot, 'dist'));
  /** @type {import('typescript').CompilerOptions} */
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
    types: ['node'],
    typeRoots: [path.join(projectRoot, 'node_modules/@types')],
    customConditions: built ? [] : ['dataapi-source'],
  };
  const host = ts.createCompilerHost(options);
  // As `tsc` parses (its command line sets this since TypeScript 5.3): JSDoc in a .ts file only
  // where it can give a type error (`@see`, `@link`); the same errors, less to parse and hold.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  const dirs = new Set([...virtual.keys()].flatMap((f) => ancestors(path.dirname(f))));
  host.getCurrentDirectory = () => projectRoot;
  host.directoryExists = (d) => dirs.has(d) || (directoryExists?.call(host, d) ?? true);
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, version, onError, create) => {
    if (!virtual.has(f)) return getSourceFile.call(host, f, version, onError, create);
    const text = virtual.get(f);
    // The syntax check's tree, when it was parsed from this text as the program would parse it
    // (the program then sets its file names). A file under node_modules takes its module format
    // from a package.json: parsed again.
    const made = parsed.get(path.relative(out, f).split(path.sep).join('/'));
    const same =
      made?.text === text &&
      typeof version === 'object' &&
      version.impliedNodeFormat === undefined &&
      version.jsDocParsingMode === made.jsDocParsingMode &&
      made.languageVersion === version.languageVersion;
    return same ? made : ts.createSourceFile(f, text, version, false, ts.ScriptKind.TS);
  };
  // Package imports resolve from the toolkit's folder (see the top of this file).
  const anchor = path.join(projectRoot, 'index.ts');
  const cache = ts.createModuleResolutionCache(projectRoot, (f) => f, options);
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => {
      const name = literal.text;
      const from = name.startsWith('.') || path.isAbsolute(name) ? containingFile : anchor;
      return ts.resolveModuleName(name, from, options, host, cache);
    });
  const program = ts.createProgram(roots, options, host);
  // Every file, types.ts (openapi-typescript's output) too: when the tree is checked, this is its
  // only type-check (the syntax check skips typescript-side.mjs `typeErrors` then), so its
  // 150,000 lines are parsed and bound once, in this program.
  const diagnostics = roots.flatMap((f) => {
    const source = program.getSourceFile(f);
    return source
      ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
      : [];
  });
  if (diagnostics.length === 0) return undefined;
  const lines = diagnostics.slice(0, SHOWN).map((d) => {
    const file = d.file ? path.relative(out, d.file.fileName).split(path.sep).join('/') : '?';
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 300);
    if (!d.file) return `  ${file}: error TS${d.code}: ${message}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const excerpt = d.file.text.split('\n')[line]?.trim().slice(0, 160) ?? '';
    return `  ${file}(${line + 1},${character + 1}): error TS${d.code}: ${message}\n      ${excerpt}`;
  });
  const files_ = new Set(diagnostics.map((d) => d.file?.fileName)).size;
  return [
    `the generated code does not type-check (${diagnostics.length} errors in ${files_} files; the first ${lines.length}):`,
    ...lines,
  ].join('\n');
}
