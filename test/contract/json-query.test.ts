/**
 * A query parameter described by `content: application/json` (corpus superset.apache.local): the
 * suite and the fuzz run send it as one JSON text, which the server reads back as the value; the
 * form style (`?q=1&q=2`) came back as strings, and valid requests were refused.
 */
import { it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('a JSON query parameter round-trips: no failure, no toolkit fault, fuzz included', async () => {
  await cleanOnOwnMock('test/fixtures/generality/json-query.yaml', 'json-query', [
    '--fuzz',
    '5',
    '--seed',
    '5',
  ]);
});
