/**
 * A parameter at the credential's place (same location and name as the security scheme's; corpus
 * nytimes.com/books_api): the credential fills it. The fuzz run sent a value of its own before the
 * key (`?api-key=&api-key=<key>`) and the server, reading the first, refused a valid request (401).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { failedOf, ROOT, runCli } from './harness.ts';

it('a declared parameter where the key goes: no 401 on a valid request, fuzz included', async () => {
  const spec = path.join(ROOT, 'test/fixtures/generality/key-parameter.yaml');
  const run = await runCli('contract', ['--spec', spec, '--fuzz', '5', '--seed', '5'], 'key-param');
  const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result!.toolkitFaults ?? [], tail).toEqual([]);
  expect(run.code, tail).toBe(0);
}, 180_000);
