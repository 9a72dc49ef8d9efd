/**
 * The client package as BASE built it, for the declarations check of `--version auto`: when BASE
 * is a git revision that holds this toolkit (its bin/dataapi.js and templates/pack), that
 * revision's tree is extracted (git archive) into a temporary folder, linked to this checkout's
 * node_modules, and its own `dataapi pack client` packs BASE's description. A
 * change of a template or of the generator then shows in the declarations even when the
 * description did not change. Other BASEs (a file; a revision without the toolkit, as in a project
 * that installs dataapi) build with the same toolkit, so only the description can differ: the
 * check is skipped, and says so.
 *
 * A revision's package is a function of its commit (its toolkit and description), the
 * description's path, the dependencies its toolkit runs on and Node: it is kept in
 * node_modules/.cache/dataapi/base-package under a hash of those (beyond the 8 used last, those
 * unused for a day go), and packed once (about 8 s of CPU) for every `--version auto` run against
 * the same BASE.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot, resolveRevision } from '../diff/git.ts';
import { markUsed, pruneUnused } from '../speed/description-caches.ts';
import { PackError } from './errors.ts';

export type BasePackage =
  | {
      dir: string;
      /** The package was kept from an earlier run against the same BASE (not packed again). */
      reused: boolean;
      cleanup(): Promise<void>;
    }
  | { skipped: string };

const KEPT = 8;

/** The key of a BASE's package: its commit, the description's path in it, the installed dependencies (npm's record of node_modules), Node. */
export function basePackageKey(commit: string, spec: string, installed: string): string {
  const deps = createHash('sha256').update(installed).digest('hex');
  return createHash('sha256')
    .update(JSON.stringify([1, commit, spec, deps, process.version]))
    .digest('hex')
    .slice(0, 24);
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  stdin?: NodeJS.ReadableStream,
): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    if (stdin && child.stdin) stdin.pipe(child.stdin);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stderr, stdout }));
  });
}

async function holds(root: string, commit: string, file: string): Promise<boolean> {
  return (await run('git', ['cat-file', '-e', `${commit}:${file}`], root)).code === 0;
}

export async function basePackage(options: {
  base: string;
  spec: string;
  cwd: string;
}): Promise<BasePackage> {
  const { cwd } = options;
  const root = await repositoryRoot(cwd);
  const colon = options.base.indexOf(':');
  const rev = colon > 0 ? options.base.slice(0, colon) : options.base;
  const commit = root !== undefined ? await resolveRevision(cwd, rev) : undefined;
  if (root === undefined || commit === undefined)
    return { skipped: `BASE ${options.base} is not a git revision` };
  for (const file of ['bin/dataapi.js', 'templates/pack/index.ts.hbs'])
    if (!(await holds(root, commit, file)))
      return {
        skipped: `${rev} does not hold the toolkit (${file}): both sides build with this one`,
      };
  const given = colon > 0 ? options.base.slice(colon + 1) : undefined;
  const spec = path
    .relative(root, path.resolve(cwd, given ?? options.spec))
    .split(path.sep)
    .join('/');
  // The revision's toolkit runs on this checkout's dependencies (it reads some by path).
  const modules = path.join(root, 'node_modules');
  if (!existsSync(modules))
    return { skipped: `no node_modules in ${root} to run ${rev}'s toolkit with (npm ci first)` };
  const installed =
    (await readFile(path.join(modules, '.package-lock.json'), 'utf8').catch(() => undefined)) ??
    (await readFile(path.join(root, 'package-lock.json'), 'utf8').catch(() => ''));
  const keptDir = path.join(modules, '.cache', 'dataapi', 'base-package');
  const kept = path.join(keptDir, basePackageKey(commit, spec, installed));
  if (existsSync(kept)) {
    await markUsed(kept); // kept over those used less recently
    return { dir: kept, reused: true, cleanup: async () => {} };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-pack-base-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await symlink(modules, path.join(dir, 'node_modules'), 'junction');
    const archive = spawn('git', ['archive', '--format=tar', commit], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const untar = await run('tar', ['-x', '-f', '-'], dir, archive.stdout);
    if (untar.code !== 0) throw new PackError(`could not extract ${rev}: ${untar.stderr.trim()}`);
    // A revision whose command line is compiled (dist/) is built first, as `npm ci` would.
    if (existsSync(path.join(dir, 'scripts', 'build.js'))) {
      const built = await run(process.execPath, ['scripts/build.js'], dir);
      if (built.code !== 0)
        throw new PackError(
          `could not build ${rev}'s toolkit: ${built.stdout}${built.stderr}`.trim(),
        );
    }
    const packed = await run(
      process.execPath,
      [
        'bin/dataapi.js',
        'pack',
        'client',
        '--spec',
        spec,
        '--out',
        '.dataapi-base-package',
        '--version',
        '0.0.0',
      ],
      dir,
    );
    if (packed.code !== 0)
      throw new PackError(
        `could not pack the client as ${rev} built it: ${packed.stderr.trim().split('\n').slice(0, 5).join('\n')}`,
      );
    const packageDir = path.join(dir, '.dataapi-base-package');
    await keep(packageDir, kept);
    return { dir: packageDir, reused: false, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** Copies the package into the cache whole (a copy renamed into place), then prunes the cache. */
async function keep(packageDir: string, kept: string): Promise<void> {
  const aside = `${kept}.${process.pid}.tmp`;
  try {
    await cp(packageDir, aside, { recursive: true });
    await rename(aside, kept);
    await pruneUnused(path.dirname(kept), '', { keep: KEPT });
  } catch {
    // a cache: another run kept the same package first, or node_modules is read-only
  } finally {
    await rm(aside, { recursive: true, force: true }).catch(() => {});
  }
}
