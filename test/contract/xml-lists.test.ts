/**
 * XML request bodies with unwrapped lists, as AWS query-protocol descriptions declare them (corpus
 * amazonaws.com/ec2 and cloudformation): an empty list writes no element, and two lists whose items
 * share an element name write them side by side. The mock read the first as a missing required
 * property and the second as one merged list, and refused the suite's valid requests.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('unwrapped XML lists: empty and side by side, the valid requests pass', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/xml-lists.yaml');
  const run = await runCli(
    'contract',
    ['--spec', spec, '--fuzz', '12', '--seed', '4'],
    'xml-lists',
  );
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result!.toolkitFaults ?? [], tail).toEqual([]);
  expect(run.code, tail).toBe(0);
}, 180_000);
