/**
 * The packages the benchmarks measure against (GitHub's description, Prism, hey-api, autocannon)
 * are not the project's dependencies: `npm ci` of the project would install 400 MB for one
 * benchmark. They live in bench/package.json and its lockfile, installed into bench/node_modules
 * the first time the benchmarks run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** bench/node_modules, where the anchors' packages and their commands are. */
export const benchModules = (root: string) => path.join(root, 'bench', 'node_modules');

export async function ensureBenchPackages(
  root: string,
  log: (line: string) => void,
): Promise<void> {
  const dir = path.join(root, 'bench');
  const wanted = Object.keys(
    (
      JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies,
  );
  if (wanted.every((name) => existsSync(path.join(dir, 'node_modules', name, 'package.json'))))
    return;
  log('bench: installing the anchors (bench/package-lock.json) into bench/node_modules');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`npm ci in bench/ failed (exit ${run.status})`);
}
