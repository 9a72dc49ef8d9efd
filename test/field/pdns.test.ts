/**
 * The field panel: PowerDNS Authoritative 4.7.3 (Debian's package, C++), tested with the
 * description it serves itself (/api/docs, Swagger 2.0, 36 operations), with its API key and
 * --allow-writes. The run's failures are exactly the audited list of docs/field.md (each one a
 * true violation by the server, checked by hand), the run exits 1 for them, the toolkit faults
 * in nothing, and the key is printed nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, runCli, type CliRun } from '../contract/harness.ts';
import { expectedFailures } from './expected.ts';
import { pdnsOrFail, startPdns } from './pdns.ts';
import type { FieldServer } from './server.ts';

// Locally a machine without PowerDNS skips; under CI a missing part throws (.ci/run installs it).
const available = pdnsOrFail() !== undefined;

/** `operation check` of each failure of the run (any variant), sorted. */
const failuresOf = (run: CliRun) =>
  [...new Set(failedOf(run).map((f) => f.split(' ').slice(0, 2).join(' ')))].sort();

describe.skipIf(!available)('field panel: PowerDNS Authoritative 4.7.3', () => {
  let server: FieldServer | undefined;
  let run: CliRun;
  let tail: string;

  beforeAll(async () => {
    server = await startPdns();
    run = await runCli(
      'contract',
      ['--spec', server.spec, '--base-url', server.baseUrl, '--allow-writes'],
      'pdns',
      { DATAAPI_APPKEY: server.key! },
    );
    tail = run.stdout.slice(-6000) + run.stderr.slice(-3000);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reports exactly the audited failures of docs/field.md', () => {
    expect(run.result, tail).toBeDefined();
    expect(failuresOf(run), tail).toEqual(expectedFailures('pdns'));
  });

  it('exits 1 for them, with no toolkit fault and no run error', () => {
    const r = run.result!;
    expect(run.code, tail).toBe(failedOf(run).length > 0 ? 1 : 0);
    expect(r.errors, tail).toEqual([]);
    expect(r.toolkitFaults ?? [], tail).toEqual([]);
    expect(r.summary.toolkitFaults ?? 0, tail).toBe(0);
  });

  it("tests the server under the description's server path, with the key", () => {
    const r = run.result!;
    // The base URL has no path: the toolkit joined the description's basePath to it.
    expect(r.target.baseUrl).toBe(`${server!.baseUrl}/api/v1`);
    expect(r.target.keyProvided).toBe(true);
    const urls = r.results.flatMap((x) => x.exchanges.map((e) => e.request.url));
    expect(urls.length).toBeGreaterThan(100);
    for (const url of urls) expect(url.startsWith(`${server!.baseUrl}/api/v1/`), url).toBe(true);
    // The key reached the server: the list of servers answered the valid request.
    const listServers = r.results.find(
      (x) => x.operation === 'listServers' && x.check === 'status',
    );
    expect(listServers?.status, tail).toBe('passed');
  });

  it('prints the key nowhere', () => {
    const key = server!.key!;
    expect(run.stdout).not.toContain(key);
    expect(run.stderr).not.toContain(key);
    expect(JSON.stringify(run.result)).not.toContain(key);
  });
});
