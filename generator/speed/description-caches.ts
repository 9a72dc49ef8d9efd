/**
 * The caches kept per description path in the project's node_modules/.cache/dataapi (a `--spec`
 * run's suite folder, `suite-<hash>`; the mock's model, `mock-model-<hash>.*`): one per
 * description a user ever tried, a suite 3 to 30 MB. Each use marks its entry; beyond the
 * KEPT_PER_KIND used last, entries not used for a day go. One used within the day stays whatever
 * the count, since another run may be reading it now. (`pack client --version auto` keeps BASE's
 * packages the same way.)
 */
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

export const KEPT_PER_KIND = 32;
const IDLE_MS = 24 * 60 * 60 * 1000;

/** Marks an entry (file or folder) as used now. */
export async function markUsed(entry: string): Promise<void> {
  const now = new Date();
  await utimes(entry, now, now).catch(() => {}); // gone meanwhile: nothing to keep
}

/**
 * Removes the entries of `dir` named `<prefix>...` beyond the `keep` used last and unused for a
 * day; the files of one entry (`mock-model-<hash>.model.json`, `.stamp.json`) go together, and
 * the entry counts as used when any of them was. Returns the entries removed.
 */
export async function pruneUnused(
  dir: string,
  prefix: string,
  { keep = KEPT_PER_KIND, now = Date.now() }: { keep?: number; now?: number } = {},
): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const entries = new Map<string, { at: number; names: string[] }>();
  for (const name of names) {
    if (!name.startsWith(prefix) || name.endsWith('.tmp')) continue;
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (!info) continue;
    const key = name.split('.')[0]!;
    const entry = entries.get(key) ?? { at: 0, names: [] };
    entry.at = Math.max(entry.at, info.mtimeMs);
    entry.names.push(name);
    entries.set(key, entry);
  }
  const removed: string[] = [];
  const byUse = [...entries].sort((a, b) => b[1].at - a[1].at);
  for (const [key, entry] of byUse.slice(keep)) {
    if (now - entry.at < IDLE_MS) continue;
    for (const name of entry.names)
      await rm(path.join(dir, name), { recursive: true, force: true }).catch(() => {});
    removed.push(key);
  }
  return removed;
}
