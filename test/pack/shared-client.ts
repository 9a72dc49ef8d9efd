/**
 * The client package of spec/openapi.yaml as `packClient` writes it with its defaults, packed once
 * per test run and shared by the files that only read it (pack.test.ts, consumer.test.ts): each
 * packing is a type-checked build of seconds. Its `npm pack` tarball is made once too. Both live
 * in the run's temporary folder, which goes with the run; the first file to ask makes them while
 * the others wait on the lock.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { withFolderLock } from '../../generator/emit/lock.ts';
import { packClient } from '../../generator/pack/index.ts';
import { npmPack, ROOT } from './helpers.ts';

export const SHARED_SPEC = path.join(ROOT, 'spec/openapi.yaml');

/** The package folder (read it, do not write into it). */
export async function sharedClient(): Promise<string> {
  const dir = path.join(inject('runTmp'), 'shared-packed-client');
  const out = path.join(dir, 'client');
  const done = path.join(dir, 'packed');
  await withFolderLock(dir, async () => {
    if (existsSync(done)) return;
    await packClient({ spec: SHARED_SPEC, out });
    await writeFile(done, '');
  });
  return out;
}

/** `npm pack` of that folder, made once per run as well (read it, do not write into it). */
export async function sharedTarball(): Promise<string> {
  const out = await sharedClient();
  const dir = path.join(path.dirname(out), 'tarball');
  const done = path.join(dir, 'packed');
  await withFolderLock(dir, async () => {
    if (existsSync(done)) return;
    await mkdir(dir, { recursive: true });
    await writeFile(done, await npmPack(out, dir));
  });
  return readFile(done, 'utf8');
}
