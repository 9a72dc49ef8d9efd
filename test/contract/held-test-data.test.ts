/**
 * The resource a user's --test-data create names, on a real server that keeps zones by name as
 * PowerDNS does (zones-server.ts): a second create of the same name is refused with 409, and a PUT
 * with another `name` renames the zone. The suite creates that resource once at a time and holds
 * it for the run (held.ts), follows a rename (renames.ts), and deletes what it created at the end.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkGivenData, useGivenData } from '../../contract-tests/given-data.ts';
import { savedRequest, validRequests } from '../../contract-tests/requests.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { failedOf, find, ROOT, runCli, type CliRun } from './harness.ts';
import { startZonesServer, type ZonesServer } from './zones-server.ts';

const SPEC = path.join(ROOT, 'test/fixtures/given/zones.yaml');
const DATA = {
  createZone: { body: { name: 'probe.example.', kind: 'Native' } },
  putZone: { body: { name: 'renamed.example.', kind: 'Master' } },
};

let server: ZonesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(
  name: string,
  extra: string[] = [],
  o: { canonical?: boolean; data?: object } = {},
): Promise<CliRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-held-'));
  const file = path.join(dir, 'data.json');
  await writeFile(file, JSON.stringify(o.data ?? DATA));
  server = await startZonesServer({ canonical: o.canonical === true });
  const args = ['--spec', SPEC, '--base-url', server.url, '--allow-writes', '--test-data', file];
  return runCli('contract', [...args, ...extra], name);
}

/** Every request the run sent for an operation (any check), as `METHOD path status purpose`. */
const sent = (r: CliRun, operation: string) =>
  (r.result?.results ?? [])
    .filter((x) => x.operation === operation)
    .flatMap((x) => x.exchanges)
    .map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.status}`);

describe('--test-data: the resource the given create names', () => {
  it('is created once at a time and held: no create meets another (no 409), every check runs', async () => {
    const r = await run('held');
    const tail = r.stdout.slice(-3000) + r.stderr.slice(-2000);
    expect(server!.creates.conflicts, tail).toBe(0);
    expect(failedOf(r), tail).toEqual([]);
    // The operations on the zone ran on it, not on a made-up name (not "not tested").
    for (const op of ['getZone', 'putZone', 'deleteZone', 'listRecords']) {
      const status = find(r, op, 'status');
      expect(status?.status, `${op}: ${status?.message}`).toBe('passed');
      expect(sent(r, op).filter((l) => l.includes('/zones/veo'))).toEqual([]);
    }
    for (const op of ['putZone', 'getZone'])
      expect(find(r, op, 'method-path')?.status, op).toBe('passed');
    expect(find(r, 'putZone', 'negative')?.status).toBe('passed');
    // The creator's own valid request created it too, and was not refused.
    expect(sent(r, 'createZone')).toContain('POST /zones 201');
    // What the suite created is deleted again: nothing is left on the server.
    expect([...server!.zones.keys()], tail).toEqual([]);
    expect(r.code, tail).toBe(0);
  });

  it('follows a rename: the requests after the PUT name the zone by its new name', async () => {
    const r = await run('rename', ['--only', 'putZone']);
    const tail = r.stdout.slice(-3000) + r.stderr.slice(-2000);
    expect(server!.renames).toEqual(['probe.example. -> renamed.example.']);
    expect(failedOf(r), tail).toEqual([]);
    for (const check of ['status', 'negative', 'method-path', 'content-type'])
      expect(find(r, 'putZone', check)?.status, check).toBe('passed');
    const lines = sent(r, 'putZone');
    expect(lines).toContain('PUT /zones/probe.example. 204');
    expect(lines).toContain('POST /zones/renamed.example. 405');
    // Every negative case reached the zone (by its new name) and was refused with 400.
    const negatives = find(r, 'putZone', 'negative')!.exchanges;
    expect(negatives.length).toBeGreaterThan(0);
    for (const e of negatives) {
      expect(new URL(e.request.url).pathname).toBe('/zones/renamed.example.');
      expect(e.status).toBe(400);
    }
    // Deleted at the end by the name it has now.
    expect([...server!.zones.keys()], tail).toEqual([]);
    expect(r.code, tail).toBe(0);
  });

  it("a rename it cannot follow: the later requests' 404s are no failure", async () => {
    // The server stores names in lower case: the zone is found by neither the name sent nor its
    // former one, and the PUT's answer (204) says nothing.
    const data = { ...DATA, putZone: { body: { name: 'Renamed.Example.', kind: 'Master' } } };
    const r = await run('lost', ['--only', 'putZone'], { canonical: true, data });
    const tail = r.stdout.slice(-3000) + r.stderr.slice(-2000);
    expect(server!.renames).toEqual(['probe.example. -> renamed.example.']);
    const lines = sent(r, 'putZone');
    expect(lines).toContain('PUT /zones/probe.example. 204');
    expect(lines).toContain('POST /zones/probe.example. 404');
    expect(failedOf(r), tail).toEqual([]);
    expect(r.code, tail).toBe(0);
    // Nothing of the wrong method's refusal could show on a zone gone from under its name: not
    // tested for want of test data, never "passed".
    expect(find(r, 'putZone', 'method-path')).toMatchObject({
      status: 'skipped',
      notTested: 'missing-test-data',
    });
  });
});

describe('--test-data: the request marks the given body', () => {
  it('is marked given (not told by its name), and a saved request does not carry the mark', async () => {
    const model = normalise(await loadSpec(SPEC));
    expect(checkGivenData(model, DATA)).toEqual([]);
    useGivenData(model, DATA);
    const create = model.operations.find((o) => o.id === 'createZone')!;
    const [spec] = validRequests(model, create);
    expect(spec).toMatchObject({ name: 'test data', given: true, body: DATA.createZone.body });
    expect(savedRequest(spec!)).not.toHaveProperty('given');
    const list = model.operations.find((o) => o.id === 'listZones')!;
    expect(validRequests(model, list)[0]!.given).toBeUndefined();
  });
});
