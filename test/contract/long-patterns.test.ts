/**
 * A path value whose pattern needs more characters than the sampler's usual length (AWS ARNs;
 * corpus amazonaws.com/resource-groups and medical-imaging): the suite's valid request carries
 * a value of the pattern, and its own mock accepts it, fuzz included. An answer of many patterned
 * fields with a loose minLength is valid too: a word drawn for the length's sake spoiled it, and
 * the suite blamed the description (`unsatisfiable-schema`) for what the sampler did.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('long patterned path values: the valid request passes, no failure, no toolkit fault', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/long-patterns.yaml');
  const run = await runCli('contract', ['--spec', spec, '--fuzz', '3', '--seed', '5'], 'long-pat');
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result!.toolkitFaults ?? [], tail).toEqual([]);
  const warned = run.result!.warnings.map((w) => `${w.code} ${w.operation ?? ''}`);
  expect(warned).not.toContain('unsatisfiable-schema getTags');
  for (const op of ['getTags', 'listTagsForResource'])
    expect(
      run.result!.results.find((r) => r.operation === op && r.check === 'status')?.status,
      op,
    ).toBe('passed');
  expect(run.code, tail).toBe(0);
}, 180_000);
