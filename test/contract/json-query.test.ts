/**
 * A query parameter described by `content: application/json` (corpus superset.apache.local): the
 * suite and the fuzz run send it as one JSON text, which the server reads back as the value; the
 * form style (`?q=1&q=2`) came back as strings, and valid requests were refused.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('a JSON query parameter round-trips: no failure, no toolkit fault, fuzz included', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/json-query.yaml');
  const run = await runCli(
    'contract',
    ['--spec', spec, '--fuzz', '5', '--seed', '5'],
    'json-query',
  );
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result!.toolkitFaults ?? [], tail).toEqual([]);
  expect(run.code, tail).toBe(0);
}, 180_000);
