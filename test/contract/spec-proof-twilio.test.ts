/** Issue 13's proof on Twilio Verify v2 (57 operations, HTTP Basic, pattern-constrained SIDs, form bodies). */
import path from 'node:path';
import { it } from 'vitest';
import { provenOnOwnMock, THIRD_PARTY } from './spec-proof.ts';

it('twilio-verify-v2.json: its own suite passes against its own mock', async () => {
  await provenOnOwnMock(path.join(THIRD_PARTY, 'twilio-verify-v2.json'), 'spec-twilio', 57);
}, 900_000);
