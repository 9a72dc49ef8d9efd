/**
 * The test run's own folders (test/global-setup.ts): a second run on the same checkout, set up and
 * torn down while this one is going on, removes its own temporary and scratch folders and nothing
 * else: not this run's scratch folder, not the folder of a third run started meanwhile.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import setup from '../global-setup.ts';
import { runWork, RUN_WORK_ENV, WORK_ROOT, workDir } from '../work.ts';

afterEach(() => vi.unstubAllEnvs());

it('a run removes only the folders it made', async () => {
  vi.stubEnv('KEEP_WORK', undefined);
  const ours = workDir('run-folders');
  writeFileSync(path.join(ours, 'file.txt'), 'this run');
  let foreign = '';
  const env = { tmp: process.env['TMPDIR'], work: process.env[RUN_WORK_ENV] };
  try {
    const provided: Record<string, string> = {};
    const project = { provide: (key: string, value: string) => (provided[key] = value) };
    const teardown = await setup(project as unknown as TestProject);
    const second = { tmp: provided['runTmp']!, work: provided['runWork']! };
    expect(path.dirname(second.work)).toBe(WORK_ROOT);
    expect(second.work).not.toBe(env.work);
    expect(process.env[RUN_WORK_ENV]).toBe(second.work);
    expect(process.env['TMPDIR']).toBe(second.tmp);
    writeFileSync(path.join(second.work, 'file.txt'), 'the second run');
    writeFileSync(path.join(second.tmp, 'file.txt'), 'the second run');
    // A third run starts meanwhile.
    mkdirSync(WORK_ROOT, { recursive: true });
    foreign = mkdtempSync(path.join(WORK_ROOT, '.tmp-other-run-'));
    writeFileSync(path.join(foreign, 'file.txt'), 'a third run');

    await teardown();
    expect(existsSync(second.work)).toBe(false);
    expect(existsSync(second.tmp)).toBe(false);
    expect(existsSync(path.join(ours, 'file.txt'))).toBe(true);
    expect(existsSync(path.join(foreign, 'file.txt'))).toBe(true);
    // The environment is given back as the second run found it.
    expect(process.env[RUN_WORK_ENV]).toBe(env.work);
    expect(process.env['TMPDIR']).toBe(env.tmp);
    expect(runWork()).toBe(path.dirname(ours));
  } finally {
    if (foreign) rmSync(foreign, { recursive: true, force: true });
    rmSync(ours, { recursive: true, force: true });
  }
});
