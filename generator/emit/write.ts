/**
 * Writing the output tree atomically, and comparing it for `--check`.
 *
 * The whole tree is written into a sibling temporary folder, then swapped in with two renames, so
 * a failure (or a kill) at any point before the swap leaves the output folder exactly as it was.
 * A folder that is not empty and has no dataapi manifest is never replaced: it is not ours.
 */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MANIFEST } from '../speed/manifest.ts';
import type { RenderedFile } from './render.ts';

export async function readTree(dir: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return tree;
  }
  for (const rel of entries.sort()) {
    const full = path.join(dir, rel);
    if ((await stat(full)).isFile())
      tree.set(rel.split(path.sep).join('/'), await readFile(full, 'utf8'));
  }
  return tree;
}

export interface Drift {
  added: string[];
  removed: string[];
  changed: string[];
}

export function compareTree(expected: RenderedFile[], actual: Map<string, string>): Drift {
  const drift: Drift = { added: [], removed: [], changed: [] };
  const want = new Map(expected.map((f) => [f.path, f.content]));
  for (const [rel, content] of want) {
    const have = actual.get(rel);
    if (have === undefined) drift.added.push(rel);
    else if (have !== content) drift.changed.push(rel);
  }
  for (const rel of actual.keys()) if (!want.has(rel)) drift.removed.push(rel);
  return drift;
}

export interface WriteHooks {
  /** Called after the temporary tree is complete and before the swap (tests use it to fail there). */
  beforeSwap?: () => void | Promise<void>;
}

/**
 * Serialises concurrent writers of one output folder (two generate runs at once). The lock is a
 * folder holding the owner's pid, so a lock left by a killed run is taken over at once.
 */
async function withLock<T>(out: string, body: () => Promise<T>): Promise<T> {
  const lock = `${out}.dataapi-lock`;
  const owner = path.join(lock, 'pid');
  await mkdir(path.dirname(out), { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      await mkdir(lock);
      await writeFile(owner, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(await readFile(owner, 'utf8').catch(() => ''));
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if ((pid > 0 && !isAlive(pid)) || age > 60_000) {
        await rm(lock, { recursive: true, force: true }); // left by a killed run
        continue;
      }
      if (waited > 120_000)
        throw new Error(`${lock} is held by another run; remove it if no run is active`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await body();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export async function writeTreeAtomically(
  outDir: string,
  files: RenderedFile[],
  hooks: WriteHooks = {},
): Promise<void> {
  const out = path.resolve(outDir);
  await withLock(out, () => swapIn(out, outDir, files, hooks));
}

async function swapIn(
  out: string,
  outDir: string,
  files: RenderedFile[],
  hooks: WriteHooks,
): Promise<void> {
  const parent = path.dirname(out);
  await mkdir(parent, { recursive: true });
  await removeStale(parent, path.basename(out));
  const existing = await readdir(out).catch(() => undefined);
  if (existing && existing.length > 0 && !existing.includes(MANIFEST)) {
    throw new Error(
      `refusing to replace ${outDir}: it is not empty and was not written by dataapi (no ${MANIFEST})`,
    );
  }
  const tag = `${path.basename(out)}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = path.join(parent, `.tmp-dataapi-new-${tag}`);
  const old = path.join(parent, `.tmp-dataapi-old-${tag}`);
  try {
    for (const file of files) {
      const target = path.join(tmp, file.path);
      if (!target.startsWith(tmp + path.sep))
        throw new Error(`refusing to write outside the output folder: ${file.path}`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.content);
    }
    await hooks.beforeSwap?.();
    if (existing) await rename(out, old);
    await rename(tmp, out);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
  await rm(old, { recursive: true, force: true });
}

/**
 * Temporary folders left by a run that was killed before it could clean up. A run killed between
 * its two renames leaves no output folder and the previous tree in its `old` folder: that tree is
 * put back first, so the output folder is as it was before the killed run.
 */
async function removeStale(parent: string, base: string): Promise<void> {
  const names = (await readdir(parent).catch(() => [] as string[])).sort();
  const stale = (prefix: string) =>
    names.filter((name) => {
      // `<pid>-<8 hex>` exactly: `generated-x`'s folders are not `generated`'s.
      const m = name.startsWith(prefix)
        ? /^(\d+)-[0-9a-f]{8}$/.exec(name.slice(prefix.length))
        : null;
      return m !== null && !isAlive(Number(m[1]));
    });
  const olds = stale(`.tmp-dataapi-old-${base}-`);
  const outExists = await stat(path.join(parent, base)).then(
    () => true,
    () => false,
  );
  if (!outExists && olds[0] !== undefined)
    await rename(path.join(parent, olds[0]), path.join(parent, base));
  for (const name of [...stale(`.tmp-dataapi-new-${base}-`), ...olds])
    await rm(path.join(parent, name), { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
