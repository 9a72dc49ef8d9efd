/**
 * GET operations that declare a request body (found by the corpus run: evemarketer.com's
 * multipart body on GET, AWS's GET operations with a JSON body). No body goes with GET (fetch
 * refuses one; RFC 9110 gives it no meaning): the mock must not ask for it, and the fuzz run must
 * not mutate a body it never sends (a "refused" case that reaches the target unchanged).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('a GET with a declared body: no failure and no toolkit fault, fuzz included', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/get-body.yaml');
  const run = await runCli('contract', ['--spec', spec, '--fuzz', '5', '--seed', '11'], 'get-body');
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result!.toolkitFaults ?? [], tail).toEqual([]);
  expect(run.code, tail).toBe(0);
}, 180_000);
