/**
 * Scratch folders inside the project, for trees whose `dataapi/...` imports must resolve to this
 * package (generated code, saved contract tests). They live in the run's own folder
 * (test/.work/.tmp-run-*, made and removed by global-setup.ts), never beside another run's; a
 * test removes its own folders when it is done (KEEP_WORK=1 keeps them for a look). Whatever
 * needs no project around it goes to os.tmpdir(), which is the run's own too.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUN_WORK_ENV = 'DATAAPI_TEST_WORK';
export const WORK_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '.work');

/**
 * The run's scratch folder. Outside `vitest run` with this project's config (no global setup),
 * one of this process's own, which nothing removes for it.
 */
export function runWork(): string {
  return process.env[RUN_WORK_ENV] ?? path.join(WORK_ROOT, `.tmp-process-${process.pid}`);
}

/** A fresh, empty folder `<run>/<prefix>-XXXXXX` of the caller's own. */
export function workDir(prefix: string): string {
  const run = runWork();
  mkdirSync(run, { recursive: true });
  return mkdtempSync(path.join(run, `${prefix}-`));
}

/** Removes a scratch folder (kept with KEEP_WORK=1 for a look). */
export function removeWork(dir: string): void {
  if (!process.env['KEEP_WORK']) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}
