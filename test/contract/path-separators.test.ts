/**
 * A negative path value must not be another template's URL (corpus callfire.com): `/media/1.5`
 * ("id not an integer") is `/media/{id}.{extension}`, whose audio answer failed getMedia's
 * content-type check. Such values are not sent, by the fixed negative cases nor by the fuzzer
 * (its draws are discarded, and counted so), and a request that another operation's route takes
 * is a toolkit fault whatever check it fails (contract-tests/recheck.ts). A path value that writes
 * no text (an enum with "": corpus brex.io) is not sent as a valid request either.
 */
import { expect, it } from 'vitest';
import { cleanOnOwnMock } from './spec-proof.ts';

it('sends no negative path value that another template takes, and no empty segment', async () => {
  const { tail, ...run } = await cleanOnOwnMock(
    'test/fixtures/generality/path-separators.yaml',
    'path-separators',
    ['--fuzz', '20', '--seed', '1'],
  );
  const urls = run.result!.results.flatMap((r) => r.exchanges ?? []).map((e) => e.request.url);
  expect(
    urls.some((u) => /\/media\/abc$/.test(u)),
    tail,
  ).toBe(true);
  expect(
    urls.filter((u) => /\/media\/\d+\.\d+$/.test(u)),
    tail,
  ).toEqual([]);
  // The fuzzer drew `1.5` for getMedia's id and left it out: counted among the discarded values.
  const fuzzed = run.result!.fuzz!.operations['getMedia']!;
  expect(fuzzed.runs.invalid, tail).toBeGreaterThan(0);
  expect(fuzzed.discarded, tail).toBeGreaterThan(0);
});
