/**
 * Work kept between processes in the toolkit's own node_modules/.cache/dataapi/ (the repository's,
 * or an installed toolkit's folder inside the user's node_modules): results that depend only on
 * their key, so any process may reuse what another wrote. A cache only: a folder that cannot be
 * read or written costs the next process the work, nothing else.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../root.ts';

const ROOT = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'dataapi');

/** The file of a result in folder `kind`, named by a hash of everything it is a function of. */
export function cachedFile(kind: string, key: unknown, ext: string): string {
  const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 32);
  return path.join(ROOT, kind, `${hash}${ext}`);
}

/** The kept text, or undefined. */
export function readCached(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes the text whole (a temporary file renamed: a reader never sees half of it). With `keepAtMost`,
 * the folder's oldest files beyond that many go (a cache keyed by content grows with every edit).
 */
export function keepCached(file: string, text: string, keepAtMost?: number): void {
  try {
    const dir = path.dirname(file);
    mkdirSync(dir, { recursive: true });
    // Unique per writer: threads of one process share its pid.
    const tmp = `${file}.${process.pid}-${randomUUID()}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
    if (keepAtMost !== undefined) prune(dir, keepAtMost);
  } catch {
    // a read-only toolkit folder: the next process does the work again
  }
}

function prune(dir: string, keepAtMost: number): void {
  const files = readdirSync(dir)
    .filter((f) => !f.endsWith('.tmp'))
    .map((f) => {
      const file = path.join(dir, f);
      return { file, at: statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    })
    .sort((a, b) => b.at - a.at);
  for (const { file } of files.slice(keepAtMost)) rmSync(file, { force: true });
}

/**
 * Marks a kept file as just used: a folder pruned by `keepAtMost` keeps the files used last, not
 * only those written last (a stamp that is found fresh on every run is never written again).
 */
export function touchCached(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // gone meanwhile, or a read-only folder: it may be pruned sooner, nothing else
  }
}
