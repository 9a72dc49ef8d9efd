/** Issue 13's proof on the service itself, through --spec like any description (cache folder, not generated/). */
import path from 'node:path';
import { it } from 'vitest';
import { ROOT } from './harness.ts';
import { provenOnOwnMock } from './spec-proof.ts';
import { model } from '../../generated/model.ts';

it('spec/openapi.yaml: its own suite passes against its own mock', async () => {
  // Every operation the description has (scaffold may have added one): counted, not pinned.
  await provenOnOwnMock(
    path.join(ROOT, 'spec/openapi.yaml'),
    'spec-service',
    model.operations.length,
  );
}, 900_000);
