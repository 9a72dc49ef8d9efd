/** Issue 13's proof on the service itself, through --spec like any description (cache folder, not generated/). */
import path from 'node:path';
import { it } from 'vitest';
import { ROOT } from './harness.ts';
import { provenOnOwnMock } from './spec-proof.ts';

it('spec/openapi.yaml: its own suite passes against its own mock', async () => {
  await provenOnOwnMock(path.join(ROOT, 'spec/openapi.yaml'), 'spec-service', 25);
}, 900_000);
