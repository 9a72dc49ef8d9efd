/**
 * The suite on XML-only operations (issue 26, class 13): content type, well-formedness and the
 * schema (read back through the xml hints) are checked and pass against the mock; the callbacks
 * and webhooks it never exercises are said so on the coverage line; a refusal's reason (the
 * target's `x-dataapi-reason`) is in what the report says happened.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { actualOf } from '../../contract-tests/checks/judge.ts';
import type { Probe } from '../../contract-tests/probes.ts';
import { find, reportDir, ROOT } from './harness.ts';
import { cleanOnOwnMock } from './spec-proof.ts';

const SPEC = path.join(ROOT, 'test/fixtures/formats/xml.yaml');

it('checks XML answers and names what it does not exercise', async () => {
  const { tail, ...run } = await cleanOnOwnMock(SPEC, 'xml', ['--report-dir', reportDir('xml')]);
  for (const op of ['listPets', 'addPet'])
    for (const check of ['content-type', 'schema'])
      expect(find(run, op, check)?.status, `${op} ${check}`).toBe('passed');
  // The XML request body, written by the hints, is taken as valid; a wrong one is refused.
  expect(find(run, 'replacePet', 'status')?.status, tail).toBe('passed');
  expect(find(run, 'replacePet', 'negative')?.status, tail).toBe('passed');
  expect(run.stdout).toMatch(/^ {2}not exercised: 1 callback\(s\): addPet onAdded$/m);
  expect(run.stdout).toMatch(/^ {2}not exercised: 1 webhook\(s\): petSold \(POST\)$/m);
}, 300_000);

it("a refusal's reason is part of what the report says happened", () => {
  const probe = {
    exchange: { record: { status: 400, reason: 'querystring/limit must be integer' } },
  } as unknown as Probe;
  expect(actualOf(probe)).toBe('HTTP 400 (querystring/limit must be integer)');
});
