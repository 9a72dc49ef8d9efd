// The import rules of DESIGN.md, checked: imports flow one way (bin/scripts -> generator |
// contract-tests | runtime -> model) and no module reaches itself again, type-only imports and
// dynamic import()s included. Imports are read and resolved by TypeScript itself (so `.ts`
// extensions, NodeNext rules and the package's own `dataapi/...` exports resolve as tsc sees
// them). Plain JavaScript, as build.js: `npm test` runs it before anything is built.
//
//   node scripts/check-imports.js [ROOT]      exit 0 when clean, 1 with one line per violation
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { resolveImport } from '../generator/resolve-import.mjs';

/** Layers checked, and the layers each must not import. */
export const FORBIDDEN = {
  model: ['generator', 'runtime', 'contract-tests', 'scripts', 'bin', 'test', 'bench'],
  runtime: ['generator', 'contract-tests', 'scripts', 'bin', 'test', 'bench'],
  'contract-tests': ['generator', 'scripts', 'bin', 'test', 'bench'],
  generator: ['runtime', 'contract-tests', 'scripts', 'bin', 'test', 'bench'],
  generated: ['generator', 'scripts', 'bin', 'test', 'bench'],
  scripts: ['test'],
  bin: ['test'],
  bench: ['test'],
  test: [],
};

const SOURCE = /\.(ts|mts|cts|js|mjs)$/;

function sourcesUnder(root) {
  const out = [];
  for (const layer of Object.keys(FORBIDDEN)) {
    let entries;
    try {
      entries = readdirSync(path.join(root, layer), { recursive: true, withFileTypes: true });
    } catch {
      continue; // a layer that does not exist here
    }
    for (const e of entries) {
      const abs = path.join(e.parentPath ?? e.path, e.name);
      const rel = path.relative(root, abs);
      if (
        e.isFile() &&
        SOURCE.test(e.name) &&
        !/(^|[\\/])(node_modules|\.work|\.tmp-[^\\/]*)[\\/]/.test(rel)
      )
        out.push(abs);
    }
  }
  return out.sort();
}

function compilerOptions(root) {
  const file = path.join(root, 'tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile);
  const options = read.error
    ? {}
    : ts.parseJsonConfigFileContent(read.config, ts.sys, root).options;
  return {
    ...options,
    allowJs: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
}

/** Every file each file imports (relative or through the package's own exports), in the root. */
export function importGraph(root) {
  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options);
  const files = sourcesUnder(root);
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of info.importedFiles) {
      const resolved = resolveImport(ts, fileName, file, options, host);
      if (!resolved || /[\\/]node_modules[\\/]/.test(resolved)) continue;
      // A .d.mts beside its .mjs stands for it.
      const target = path.resolve(resolved.replace(/\.d\.mts$/, '.mjs'));
      if (target.startsWith(root + path.sep) && target !== file) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

const layerOf = (root, file) => path.relative(root, file).split(path.sep)[0];

/** Imports that go against the layers' direction. */
export function directionViolations(root, graph) {
  const out = [];
  for (const [file, targets] of graph) {
    const from = layerOf(root, file);
    for (const target of targets) {
      const to = layerOf(root, target);
      if ((FORBIDDEN[from] ?? []).includes(to))
        out.push(
          `${path.relative(root, file)} imports ${path.relative(root, target)} (${from}/ must not import ${to}/)`,
        );
    }
  }
  return out;
}

/** The import cycles: each strongly connected set of files, with one path around it. */
export function cycles(root, graph) {
  // Tarjan's strongly connected components (recursive: import chains here are shallow).
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) connect(v);
  return found.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0];
    // One way around: walk inside the component back to the start.
    const route = [start];
    const seen = new Set([start]);
    let at = start;
    for (;;) {
      const next = (graph.get(at) ?? []).filter((w) => members.has(w));
      const home = next.find((w) => w === start);
      if (home) break;
      const step = next.find((w) => !seen.has(w)) ?? next[0];
      if (step === undefined || seen.has(step)) break;
      route.push(step);
      seen.add(step);
      at = step;
    }
    route.push(start);
    const others = component.length - (route.length - 1);
    return `import cycle: ${route.map((f) => path.relative(root, f)).join(' -> ')}${others > 0 ? ` (and ${others} more files in the same cycle)` : ''}`;
  });
}

export function checkImports(root) {
  const graph = importGraph(root);
  return {
    files: graph.size,
    problems: [...directionViolations(root, graph), ...cycles(root, graph)],
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
  );
  const { files, problems } = checkImports(root);
  for (const p of problems) process.stderr.write(`check-imports: ${p}\n`);
  if (problems.length === 0)
    process.stdout.write(`check-imports: ${files} files, imports flow one way, no cycles\n`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
