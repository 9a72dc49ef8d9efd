/**
 * The field panel's PowerDNS again, as QA runs it once it has read the first report: with test
 * data (test/fixtures/field/pdns-test-data.yaml) that names a zone the server takes. The zone is
 * created once, held for the run and deleted after it, so the operations under /zones/{zone_id}
 * are judged on a zone that exists. The run's failures are exactly those of the first list of
 * docs/field.md, less the rows the held zone takes away, plus the rows it adds (both audited by
 * hand there); the zone is gone after the run, and the key is printed nowhere.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, ROOT, runCli, type CliRun } from '../contract/harness.ts';
import { expectedFailures } from './expected.ts';
import { pdnsOrFail, startPdns } from './pdns.ts';
import type { FieldServer } from './server.ts';

const available = pdnsOrFail() !== undefined;
const TEST_DATA = path.join(ROOT, 'test/fixtures/field/pdns-test-data.yaml');

const failuresOf = (run: CliRun) =>
  [...new Set(failedOf(run).map((f) => f.split(' ').slice(0, 2).join(' ')))].sort();

/** The first run's list, less what the held zone takes away, plus what it adds. */
function heldExpected(): string[] {
  const drops = new Set(expectedFailures('pdns-held-drops'));
  return [
    ...expectedFailures('pdns').filter((f) => !drops.has(f)),
    ...expectedFailures('pdns-held-adds'),
  ].sort();
}

describe.skipIf(!available)('field panel: PowerDNS with a zone held for the run', () => {
  let server: FieldServer | undefined;
  let run: CliRun;
  let tail: string;

  beforeAll(async () => {
    server = await startPdns();
    run = await runCli(
      'contract',
      [
        '--spec',
        server.spec,
        '--base-url',
        server.baseUrl,
        '--allow-writes',
        '--test-data',
        TEST_DATA,
      ],
      'pdns-held',
      { DATAAPI_APPKEY: server.key! },
    );
    tail = run.stdout.slice(-6000) + run.stderr.slice(-3000);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reports exactly the audited failures of docs/field.md with the zone held', () => {
    expect(run.result, tail).toBeDefined();
    expect(failuresOf(run), tail).toEqual(heldExpected());
  });

  it('reaches the zone: its operations are judged on it, fewer not tested for test data', () => {
    const r = run.result!;
    const zone = r.results.find((x) => x.operation === 'listZone' && x.check === 'status');
    expect(zone?.status, tail).toBe('passed');
    const urls = zone!.exchanges.map((e) => e.request.url);
    expect(
      urls.some((u) => u.endsWith('/zones/probe.example.')),
      urls.join('\n'),
    ).toBe(true);
    // The first run leaves every zone operation untested for want of a zone; here only the
    // operations on objects inside it that the suite cannot create (cryptokeys, metadata kinds,
    // TSIG keys) and the like stay so.
    const missing = r.results.filter((x) => x.notTested === 'missing-test-data');
    expect(missing.some((x) => x.operation === 'listZone')).toBe(false);
    expect(r.errors, tail).toEqual([]);
    expect(r.summary.toolkitFaults ?? 0, tail).toBe(0);
  });

  it('leaves no zone behind, and prints the key nowhere', async () => {
    const res = await fetch(`${server!.baseUrl}/api/v1/servers/localhost/zones`, {
      headers: { 'X-API-Key': server!.key! },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }[]).map((z) => z.name)).toEqual([]);
    const key = server!.key!;
    expect(run.stdout).not.toContain(key);
    expect(run.stderr).not.toContain(key);
    expect(JSON.stringify(run.result)).not.toContain(key);
  });
});
