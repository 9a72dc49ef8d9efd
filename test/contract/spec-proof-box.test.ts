/**
 * Issue 13's proof on Box (296 operations: path keys with #fragments sharing routes, parameter
 * styles, JSON Patch bodies, multipart JSON fields, overlapping oneOf options, invalid examples).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { provenOnOwnMock, THIRD_PARTY } from './spec-proof.ts';

it('box.json: its own suite passes against its own mock', async () => {
  const run = await provenOnOwnMock(path.join(THIRD_PARTY, 'box.json'), 'spec-box', 296);
  const codes = new Set(run.result!.warnings.map((w) => w.code));
  for (const code of ['path-key-fragment', 'operation-shared-route', 'example-invalid'])
    expect(codes).toContain(code);
}, 900_000);
