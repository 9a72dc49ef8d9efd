/**
 * A response example its schema refuses is a description warning of `dataapi contract`, on the
 * operation's status check, whether the worker works it out or the runner does for it (a worker
 * thread asks the runner on its channel: scheduler-channel.ts).
 */
import { expect, it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it("warns about a response example its schema refuses, on the operation's status check", async () => {
  const run = await cleanOnOwnMock(
    'test/fixtures/generality/response-example.yaml',
    'resp-example',
  );
  const r = run.result!;
  const pointer =
    '/paths/~1things~1{id}/get/responses/200/content/application~1json/examples/broken';
  expect(r.warnings.map((w) => [w.code, w.operation, w.pointer])).toEqual([
    ['example-invalid', 'getThing', pointer],
  ]);
  expect(r.warnings[0]?.message, run.tail).toMatch(
    /^response 200 example "broken" does not match its schema: .*integer/,
  );
  const status = r.results.find((x) => x.check === 'status' && x.variant === 'main');
  expect(status?.warnings?.map((w) => w.pointer)).toEqual([pointer]);
});
