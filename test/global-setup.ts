/**
 * Once per `vitest run`, before the workers start: a temporary folder of the run's own, which the
 * workers and every process they start get as TMPDIR (os.tmpdir()), so whatever a test leaves
 * there goes with the run; and afterwards test/.work (the scratch space inside the project, for
 * trees whose `dataapi/...` imports must resolve) is left as the run found it: what the run
 * added is removed, and the folder itself when nothing else is in it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const WORK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '.work');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's own temporary folder (also TMPDIR in the workers). */
    runTmp: string;
  }
}

export default async function setup(project: TestProject) {
  const outer = process.env['TMPDIR'];
  const runTmp = await mkdtemp(path.join(tmpdir(), 'dataapi-test-run-'));
  // The workers are started after this, with this process's environment.
  process.env['TMPDIR'] = runTmp;
  project.provide('runTmp', runTmp);
  const before = new Set(existsSync(WORK) ? readdirSync(WORK) : []);

  return async function teardown() {
    if (outer === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = outer;
    if (!process.env['KEEP_WORK']) {
      await rm(runTmp, { recursive: true, force: true, maxRetries: 5 });
      const after = await readdir(WORK).catch(() => [] as string[]);
      await Promise.all(
        after
          .filter((name) => !before.has(name))
          .map((name) =>
            rm(path.join(WORK, name), { recursive: true, force: true, maxRetries: 5 }),
          ),
      );
      await rmdir(WORK).catch(() => undefined); // only when empty
    }
  };
}
