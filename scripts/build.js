// `npm run build`: the toolkit compiled to JavaScript with declarations in dist/ (tsc, with the
// sources' `.ts` import specifiers rewritten to `.js`), plus the plain-JavaScript modules the
// compiler does not copy (the generator's worker and TypeScript-side modules). Plain JavaScript:
// it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const LAYERS = ['model', 'generator', 'runtime', 'contract-tests', 'scripts'];

/** Every input of the build: unchanged inputs skip it (`npm pack` runs both prepare and prepack). */
function inputsHash() {
  const hash = createHash('sha256');
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package.json'])
    hash.update(readFileSync(path.join(root, file)));
  hash.update(createRequire(import.meta.url)('typescript/package.json').version);
  for (const layer of LAYERS) {
    const files = readdirSync(path.join(root, layer), { recursive: true })
      .filter((f) => /\.(ts|mts|mjs|cjs|js)$/.test(f) && !/(^|[\\/])\.tmp-/.test(f))
      .sort();
    for (const rel of files)
      hash.update(`${layer}/${rel}\0`).update(readFileSync(path.join(root, layer, rel)));
  }
  return hash.digest('hex');
}

const stampFile = path.join(dist, '.build-stamp');
const stamp = inputsHash();
let previous = '';
try {
  previous = readFileSync(stampFile, 'utf8');
} catch {
  // never built
}
if (previous === stamp && !process.argv.includes('--force')) {
  process.stderr.write('build: dist/ is up to date\n');
  process.exit(0);
}

// Stale files of renamed sources must not ship.
rmSync(dist, { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
if (run.status !== 0) process.exit(run.status ?? 1);

for (const layer of LAYERS) {
  for (const rel of readdirSync(path.join(root, layer), { recursive: true })) {
    if (!/\.(mjs|cjs|d\.mts)$/.test(rel)) continue;
    const target = path.join(dist, layer, rel);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(root, layer, rel), target);
  }
}
writeFileSync(stampFile, stamp);
