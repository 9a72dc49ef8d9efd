/**
 * Once per `vitest run`, before the workers start: two folders of the run's own, which go with the
 * run. A temporary folder, which the workers and every process they start get as TMPDIR
 * (os.tmpdir()); and a scratch folder inside the project, test/.work/.tmp-run-*, for trees whose
 * `dataapi/...` imports must resolve (see test/work.ts). Another run on the same checkout at the
 * same time has folders of its own: this one removes only its own, never what it finds in
 * test/.work. The `.tmp-` name keeps tsc and prettier out of it (tsconfig.json, .prettierignore).
 */
import { mkdir, mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { RUN_WORK_ENV, WORK_ROOT } from './work.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's own temporary folder (also TMPDIR in the workers). */
    runTmp: string;
    /** The run's own scratch folder inside the project (also DATAAPI_TEST_WORK in the workers). */
    runWork: string;
  }
}

export default async function setup(project: TestProject) {
  const outer = { tmp: process.env['TMPDIR'], work: process.env[RUN_WORK_ENV] };
  const runTmp = await mkdtemp(path.join(tmpdir(), 'dataapi-test-run-'));
  await mkdir(WORK_ROOT, { recursive: true });
  const runWork = await mkdtemp(path.join(WORK_ROOT, '.tmp-run-'));
  // The workers are started after this, with this process's environment.
  process.env['TMPDIR'] = runTmp;
  process.env[RUN_WORK_ENV] = runWork;
  project.provide('runTmp', runTmp);
  project.provide('runWork', runWork);

  return async function teardown() {
    restore('TMPDIR', outer.tmp);
    restore(RUN_WORK_ENV, outer.work);
    if (process.env['KEEP_WORK']) return;
    await rm(runTmp, { recursive: true, force: true, maxRetries: 5 });
    await rm(runWork, { recursive: true, force: true, maxRetries: 5 });
    await rmdir(WORK_ROOT).catch(() => undefined); // only when empty: another run may be in it
  };
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
