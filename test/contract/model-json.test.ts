/**
 * `dataapi contract` loads a suite's model from model.json, not from the generated model.ts (a
 * large description's model.ts is one string literal of megabytes that vitest would transform
 * and send to every worker): a suite whose model.ts cannot be evaluated still runs.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeWork, workDir } from '../work.ts';
import { ROOT, failedOf, runCli } from './harness.ts';

// Inside the project, so that the suite's `dataapi/...` imports resolve.
const WORK = workDir('model-json');

describe('the suite model in a contract run', () => {
  afterAll(() => removeWork(WORK));

  it('comes from model.json: a model.ts that throws is never evaluated', async () => {
    const dir = path.join(WORK, 'generated');
    await mkdir(dir, { recursive: true });
    for (const part of ['model.json', 'model.ts', 'contract-tests'])
      await cp(path.join(ROOT, 'generated', part), path.join(dir, part), { recursive: true });
    await writeFile(path.join(dir, 'model.ts'), "throw new Error('model.ts was evaluated');\n");
    const run = await runCli(
      'contract',
      ['--dir', path.relative(ROOT, dir), '--only', 'getAirQuality'],
      'model-json',
    );
    expect(failedOf(run), run.stdout.slice(-3000) + run.stderr).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain('model.ts was evaluated');
    expect(run.code).toBe(0);
    expect(run.result!.coverage.operations).toEqual(['getAirQuality']);
  }, 300_000);
});
