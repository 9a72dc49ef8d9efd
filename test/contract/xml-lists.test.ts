/**
 * XML request bodies with unwrapped lists, as AWS query-protocol descriptions declare them (corpus
 * amazonaws.com/ec2 and cloudformation): an empty list writes no element, and two lists whose items
 * share an element name write them side by side. The mock read the first as a missing required
 * property and the second as one merged list, and refused the suite's valid requests.
 */
import { it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('unwrapped XML lists: empty and side by side, the valid requests pass', async () => {
  await cleanOnOwnMock('test/fixtures/generality/xml-lists.yaml', 'xml-lists', [
    '--fuzz',
    '12',
    '--seed',
    '4',
  ]);
});
