/**
 * A parameter whose schema admits no value (corpus trakt.tv: `type: integer` with an enum of
 * strings): the request built from it is refused by any conforming target, so the refusal is a
 * description warning (`unsatisfiable-schema`, naming the parameter), never the target's failure.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('puts the refusal of an unsatisfiable parameter on the description', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/unsatisfiable-parameter.yaml');
  const run = await runCli('contract', ['--spec', spec], 'unsatisfiable-parameter');
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  const warned = (run.result!.warnings ?? []).filter((w) => w.code === 'unsatisfiable-schema');
  expect(warned.map((w) => w.message).join('\n'), tail).toMatch(/path parameter rating/);
  expect(run.code, tail).toBe(0);
}, 120_000);
