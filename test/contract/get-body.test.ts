/**
 * GET operations that declare a request body (found by the corpus run: evemarketer.com's
 * multipart body on GET, AWS's GET operations with a JSON body). No body goes with GET (fetch
 * refuses one; RFC 9110 gives it no meaning): the mock must not ask for it, and the fuzz run must
 * not mutate a body it never sends (a "refused" case that reaches the target unchanged).
 */
import { it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('a GET with a declared body: no failure and no toolkit fault, fuzz included', async () => {
  await cleanOnOwnMock('test/fixtures/generality/get-body.yaml', 'get-body', [
    '--fuzz',
    '5',
    '--seed',
    '11',
  ]);
});
