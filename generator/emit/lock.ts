/**
 * One writer per output folder. CI jobs, shards and `--spec` runs on one machine start at once on
 * the same folder; the atomic swap keeps a reader from half a tree, but two writers delete each
 * other's staging folders, and a reader can fall between another writer's two renames. The lock
 * makes the others wait, then find the tree up to date.
 *
 * It is a file created exclusively (`wx`) holding the holder's pid, in the system's temporary
 * folder (named for the output folder's absolute path, so a failed run leaves nothing in the
 * user's tree). A holder that was killed is seen at once (its pid is gone), not after a timeout;
 * its lock is moved aside before it is removed so that two waiters never remove a fresh one.
 */
import { randomBytes, createHash } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long to wait for another run (a GitHub-size description takes well under a minute). */
const WAIT_MS = 10 * 60_000;
/** A lock file still empty after this long was left by a holder killed as it created it. */
const EMPTY_STALE_MS = 5_000;

export async function withFolderLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const key = createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 16);
  const file = path.join(tmpdir(), `dataapi-${key}.lock`);
  const token = `${process.pid} ${randomBytes(6).toString('hex')}`;
  await acquire(file, token, folder);
  try {
    return await work();
  } finally {
    // Only our own lock is removed (a holder taken for dead could have been replaced).
    if ((await readFile(file, 'utf8').catch(() => '')) === token)
      await unlink(file).catch(() => {});
  }
}

async function acquire(file: string, token: string, folder: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(token);
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await holderOf(file);
    if (holder === 'gone') continue;
    if (holder === 'dead') {
      await removeDead(file);
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${folder}: another dataapi run (pid ${holder}) has been writing it for ${WAIT_MS / 60_000} minutes; stop it or remove ${file}`,
      );
    await sleep(pause);
  }
}

/** The holder's pid, or whether the lock is gone or its holder dead. */
async function holderOf(file: string): Promise<number | 'gone' | 'dead'> {
  const [text, info] = await Promise.all([
    readFile(file, 'utf8').catch(() => undefined),
    stat(file).catch(() => undefined),
  ]);
  if (text === undefined || !info) return 'gone';
  const pid = Number(text.split(' ')[0]);
  if (!text) return Date.now() - info.mtimeMs > EMPTY_STALE_MS ? 'dead' : 0;
  return alive(pid) ? pid : 'dead';
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves the lock aside, then checks that what it moved is still a dead holder's: another waiter
 * may have removed the dead lock and taken a fresh one in between, which is put back.
 */
async function removeDead(file: string): Promise<void> {
  const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch {
    return;
  }
  if ((await holderOf(aside)) !== 'dead') await link(aside, file).catch(() => {});
  await unlink(aside).catch(() => {});
}
