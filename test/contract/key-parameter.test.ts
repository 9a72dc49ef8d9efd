/**
 * A parameter at the credential's place (same location and name as the security scheme's; corpus
 * nytimes.com/books_api): the credential fills it. The fuzz run sent a value of its own before the
 * key (`?api-key=&api-key=<key>`) and the server, reading the first, refused a valid request (401).
 */
import { it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('a declared parameter where the key goes: no 401 on a valid request, fuzz included', async () => {
  await cleanOnOwnMock('test/fixtures/generality/key-parameter.yaml', 'key-param', [
    '--fuzz',
    '5',
    '--seed',
    '5',
  ]);
});
