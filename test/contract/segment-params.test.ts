/**
 * A path parameter sharing its segment with text (`{id}.{format}`; corpus hhs.gov): a negative
 * value holding that text ("1.5" for an integer id) is another valid request on the wire, so it
 * is not sent as a negative case; the run has no failure and no toolkit fault, fuzz included.
 */
import { it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('{id}.{format}: no negative case the wire reads as valid, no toolkit fault', async () => {
  await cleanOnOwnMock('test/fixtures/generality/segment-params.yaml', 'segment', [
    '--fuzz',
    '3',
    '--seed',
    '5',
  ]);
});
