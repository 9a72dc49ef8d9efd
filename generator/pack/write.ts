/**
 * Writes the package folder so that the same input gives the same bytes: files in sorted order,
 * one fixed modification time, LF endings. The folder is built beside the target and swapped
 * in, so a failed run leaves the previous package as it was; a folder that is not a package
 * this command wrote is never replaced.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PackInputError } from './errors.ts';

/** Marks a folder as written by `dataapi pack` (not in the package's `files`, so not published). */
export const MARKER = '.dataapi-pack.json';

/** npm's own fixed date for tarball entries: the files' dates carry no information. */
export const FIXED_MTIME = new Date('1985-10-26T08:15:00.000Z');

/** Refuses an --out folder that holds anything but a package this command wrote. */
export async function checkOutDir(out: string): Promise<void> {
  const target = path.resolve(out);
  if (!existsSync(target)) return;
  const entries = await readdir(target).catch(() => {
    throw new PackInputError(`${out} exists and is not a folder`);
  });
  if (entries.length > 0 && !entries.includes(MARKER))
    throw new PackInputError(
      `${out} exists and was not written by dataapi pack: choose another --out or empty it`,
    );
}

export async function writePackage(out: string, files: Map<string, string>): Promise<void> {
  const target = path.resolve(out);
  await checkOutDir(out);
  const parent = path.dirname(target);
  await mkdir(parent, { recursive: true });
  const staging = path.join(parent, `.${path.basename(target)}.tmp-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    const sorted = [...files.keys()].sort();
    const dirs = new Set<string>();
    for (const rel of sorted) {
      const file = path.join(staging, rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, files.get(rel) as string);
      await utimes(file, FIXED_MTIME, FIXED_MTIME);
      for (let d = path.dirname(rel); d !== '.'; d = path.dirname(d)) dirs.add(d);
    }
    for (const d of [...dirs, '.']) {
      await utimes(path.join(staging, d), FIXED_MTIME, FIXED_MTIME);
    }
    const old = `${staging}-old`;
    if (existsSync(target)) await rename(target, old);
    await rename(staging, target);
    await rm(old, { recursive: true, force: true });
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}
