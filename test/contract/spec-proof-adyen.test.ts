/** Issue 13's proof on Adyen Management v3 (134 operations, its own error schema, allOf compositions). */
import path from 'node:path';
import { it } from 'vitest';
import { provenOnOwnMock, THIRD_PARTY } from './spec-proof.ts';

it('adyen-management-v3.json: its own suite passes against its own mock', async () => {
  await provenOnOwnMock(path.join(THIRD_PARTY, 'adyen-management-v3.json'), 'spec-adyen', 134);
}, 900_000);
