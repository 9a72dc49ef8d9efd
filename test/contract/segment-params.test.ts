/**
 * A path parameter sharing its segment with text (`{id}.{format}`; corpus hhs.gov): a negative
 * value holding that text ("1.5" for an integer id) is another valid request on the wire, so it
 * is not sent as a negative case; the run has no failure and no toolkit fault, fuzz included.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('{id}.{format}: no negative case the wire reads as valid, no toolkit fault', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/segment-params.yaml');
  const run = await runCli('contract', ['--spec', spec, '--fuzz', '3', '--seed', '5'], 'segment');
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result!.toolkitFaults ?? [], tail).toEqual([]);
  expect(run.code, tail).toBe(0);
}, 180_000);
