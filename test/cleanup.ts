/**
 * Folders to remove when the current test file ends. The hook that removes them is in setup.ts,
 * which vitest runs for every file: a helper module's own top-level `afterAll` would run for the
 * first file of a worker only, as the workers are not isolated (vitest.config.ts).
 */
import { rmSync } from 'node:fs';

const pending: string[] = [];

/** Removes `dir` after the test file that made it (KEEP_WORK=1 keeps it for a look). */
export function removeAfterFile(dir: string): string {
  pending.push(dir);
  return dir;
}

/** Called by setup.ts after each file. */
export function removePending(): void {
  const dirs = pending.splice(0);
  if (process.env['KEEP_WORK']) return;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}
