// The TypeScript compiler (typescript.js, 9 MB of CommonJS) compiled from V8's code cache. Every
// thread that renders types.ts, checks syntax or type-checks loads it, and compiling it cost about
// 0.3 s, then its functions about as much again when first called: a third of a small
// description's `generate`. Node 20 has no compile cache (module.enableCompileCache is Node 22),
// so the compiler is compiled here with vm.Script and V8's cached data, then put in require's
// cache, where openapi-typescript's require and any later `import 'typescript'` find it.
//
// The cached data is written after a thread has used the compiler, so that it holds the functions
// compiled on the way: at depth 'parse' (types.ts rendered, syntax checked) or 'check' (a
// type-check too, whose checker is the larger half). A thread reads the deepest one there is and
// writes only a deeper one. The files sit beside the compiler, in node_modules/.cache/dataapi/v8,
// keyed by the compiler file (path, size, time), Node and its flags. V8 checks the data itself and
// rejects a mismatch (the compiler is then compiled from source, as before, and the data written
// again); a folder that cannot be written only costs the next process the compile. Plain
// JavaScript: it runs in the generator's worker thread, which has no TypeScript loader.
import { createHash, randomUUID } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const DEPTHS = ['parse', 'check'];
/** Files kept in the folder: the compiler's versions, Node's and flag sets used last. */
const KEPT_FILES = 8;

/**
 * The compiler this thread loaded; `depth`: index in DEPTHS of the data it holds or was
 * compiled from (-1: none).
 * `read`: the depth V8 accepted when loading.
 * @type {{ script: vm.Script; base: string; depth: number; read: number } | undefined}
 */
let loaded;

/**
 * Loads the compiler that `from` (a require function) resolves `typescript` to, from the code
 * cache when there is one, into require's cache. Later loads in this thread are a lookup.
 * @param {NodeJS.Require} from
 */
export function preloadCompiler(from) {
  if (loaded || process.env['DATAAPI_NO_CODE_CACHE']) return;
  let file;
  try {
    file = from.resolve('typescript');
  } catch {
    return; // openapi-typescript's own require then says what is missing
  }
  if (Module._cache[file]) return; // loaded already, the usual way
  const base = cacheBaseOf(file);
  let cachedData;
  let depth = -1;
  for (let d = DEPTHS.length - 1; d >= 0 && base && !cachedData; d--) {
    try {
      cachedData = readFileSync(`${base}-${DEPTHS[d]}.bin`);
      depth = d;
      // Used: kept over files used less recently.
      utimesSync(`${base}-${DEPTHS[d]}.bin`, new Date(), new Date());
    } catch {
      // none at this depth (or a read-only folder)
    }
  }
  const source = readFileSync(file, 'utf8');
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const mod = new Module(file, undefined);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext();
  run.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  Module._cache[file] = mod;
  // false only when V8 was given data and took it (undefined when given none).
  const read = script.cachedDataRejected === false ? depth : -1;
  loaded = { script, base: base ?? '', depth: read, read };
}

/**
 * What this thread's compiler was compiled from: the depth of the code cache V8 accepted
 * ('none': compiled from source), and the cache files' path without the depth. For tests.
 * @returns {{ from: 'none' | 'parse' | 'check'; base: string } | undefined}
 */
export function compilerCodeStatus() {
  if (!loaded) return undefined;
  return { from: loaded.read < 0 ? 'none' : DEPTHS[loaded.read], base: loaded.base };
}

/**
 * Writes the code cache after the compiler has been used this deep ('parse' or 'check'), unless
 * this thread read or wrote data at least as deep.
 * @param {'parse' | 'check'} used
 */
export function keepCompilerCode(used) {
  const depth = DEPTHS.indexOf(used);
  if (!loaded || !loaded.base || depth <= loaded.depth) return;
  loaded.depth = depth;
  try {
    const data = loaded.script.createCachedData();
    const file = `${loaded.base}-${used}.bin`;
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}-${randomUUID()}.tmp`;
    writeFileSync(temp, data);
    renameSync(temp, file);
    prune(path.dirname(file));
  } catch {
    // a read-only node_modules: the next process compiles the compiler itself
  }
}

/** The cache files' path for this compiler, Node and flags, without the depth; undefined when the file cannot be read. */
function cacheBaseOf(file) {
  try {
    const info = statSync(file);
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          file,
          info.size,
          info.mtimeMs,
          process.version,
          process.arch,
          process.execArgv,
          process.env['NODE_OPTIONS'] ?? '',
        ]),
      )
      .digest('hex')
      .slice(0, 24);
    // node_modules/typescript/lib/typescript.js -> node_modules/.cache/dataapi/v8
    const modules = path.resolve(path.dirname(file), '..', '..');
    return path.join(modules, '.cache', 'dataapi', 'v8', `typescript-${key}`);
  } catch {
    return undefined;
  }
}

/** Removes all but the KEPT_FILES cache files used or written last (other writers' .tmp files stay). */
function prune(dir) {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => {
      const file = path.join(dir, name);
      return { file, at: statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    })
    .sort((a, b) => b.at - a.at);
  for (const { file } of files.slice(KEPT_FILES)) rmSync(file, { force: true });
}
