// `dataapi generate` without a module loader. It is the command CI runs on every change, and tsx's
// loader hooks (every import of every package crosses to the hooks thread) cost it about 300 ms.
// So its modules are bundled by esbuild into one ES module, once per change of their sources
// (node_modules/.cache/dataapi), and imported by plain Node. Packages stay external. Plain
// JavaScript, as bin/dataapi.js: it runs before any loader exists.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'scripts/commands/generate.ts');

/** Every source the bundle is made of, and the bundler's version: the cache key. */
async function key() {
  const hash = createHash('sha256');
  const dirs = ['model', 'generator', 'scripts'];
  for (const dir of dirs) {
    const files = (await readdir(path.join(root, dir), { recursive: true }))
      .filter((f) => /\.(ts|mts|mjs|js)$/.test(f))
      .sort();
    for (const rel of files) {
      hash.update(`${dir}/${rel}\0`);
      hash.update(await readFile(path.join(root, dir, rel)));
    }
  }
  hash.update(createRequire(import.meta.url)('esbuild/package.json').version);
  return hash.digest('hex').slice(0, 16);
}

/** The generate command module, from a bundle made now or earlier. */
export async function loadGenerateCommand() {
  const dir = path.join(root, 'node_modules', '.cache', 'dataapi', `generate-${await key()}`);
  const main = pathToFileURL(path.join(dir, 'generate.js')).href;
  try {
    return await import(main);
  } catch {
    // not built yet for these sources
  }
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    // Chunks keep the generator's lazy import()s lazy: a run loads a package only when it needs it.
    splitting: true,
    outdir: dir,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // The bundle lives elsewhere: import.meta.url means generator/root.ts, from which the
    // generator finds its templates and worker.
    define: {
      'import.meta.url': JSON.stringify(pathToFileURL(path.join(root, 'generator/root.ts')).href),
    },
    logLevel: 'silent',
  });
  // Written beside, then renamed into place: a concurrent run never imports half a bundle.
  const tmp = `${dir}.${process.pid}.tmp`;
  for (const out of result.outputFiles) {
    const target = path.join(tmp, path.relative(dir, out.path));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, out.contents);
  }
  try {
    await rename(tmp, dir);
  } catch {
    await rm(tmp, { recursive: true, force: true }); // another run put the same bundle there first
  }
  // Bundles of earlier sources are never used again.
  const cache = path.dirname(dir);
  for (const name of await readdir(cache)) {
    if (/^generate-[0-9a-f]{16}$/.test(name) && name !== path.basename(dir)) {
      await rm(path.join(cache, name), { recursive: true, force: true }).catch(() => undefined);
    }
  }
  return import(main);
}
