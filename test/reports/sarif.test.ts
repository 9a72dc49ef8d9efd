/**
 * The contract reports' SARIF 2.1.0 log (`--reporter sarif`), rendered from the committed results
 * of a real failing run (fixture.ts): valid against the OASIS schema, one error per failed check
 * (rule = the check), one warning per description warning (rule = its code), one note per toolkit
 * fault, each located by the JSON pointer of its operation in the description.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { buildReport, renderSarif, writeReports } from '../../contract-tests/reports/index.ts';
import { reportDir } from '../contract/harness.ts';
import { sarifProblems } from '../lifecycle/sarif-check.ts';
import { EXPECTED_FAILURES, loadFixture } from './fixture.ts';

interface Log {
  runs: {
    tool: {
      driver: { name: string; rules: { id: string; defaultConfiguration: { level: string } }[] };
    };
    results: {
      ruleId: string;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: { artifactLocation: { uri: string } };
        logicalLocations?: { fullyQualifiedName: string }[];
      }[];
      properties?: Record<string, string>;
    }[];
  }[];
}

/** The fixture with a description warning and a toolkit fault, which the real run had none of. */
function fixture() {
  const r = loadFixture();
  r.warnings = [
    {
      code: 'undeclared-status',
      pointer: '/paths/~1Weather~1AirQuality/get/responses',
      operation: 'getAirQuality',
      message: 'HTTP 418 is not declared',
    },
  ];
  r.toolkitFaults = [
    {
      code: 'toolkit-fault',
      operation: 'getIpLocation',
      check: 'negative',
      purpose: 'negative: query ip missing (required)',
      request: { method: 'GET', url: 'http://127.0.0.1:1/v2/location/ip?appkey=***' },
      expected: 'HTTP 400',
      actual: 'HTTP 200',
      message: 'the description admits the request as sent',
    },
  ];
  // As a run writes it: the check's own, which reports read (the run's list repeats them).
  const check = r.results.find(
    (x) => x.operation === 'getIpLocation' && x.variant === 'main' && x.check === 'negative',
  )!;
  check.toolkitFaults = r.toolkitFaults;
  return r;
}

const render = () =>
  JSON.parse(
    renderSarif(buildReport(fixture(), model), { model, descriptionFile: 'spec/openapi.yaml' }),
  ) as Log;

describe('SARIF report', () => {
  it('is a valid SARIF 2.1.0 log', () => {
    const text = renderSarif(buildReport(fixture(), model), {
      model,
      descriptionFile: 'spec/openapi.yaml',
    });
    expect(sarifProblems(text)).toEqual([]);
  });

  it('has one error per failed check, its rule the check, at the operation in the description', () => {
    const run = render().runs[0]!;
    expect(run.tool.driver.name).toBe('dataapi contract');
    const errors = run.results.filter((r) => r.level === 'error');
    const failed = fixture()
      .results.filter((r) => r.status === 'failed')
      .map((r) => `${r.operation} ${r.variant} ${r.check}`);
    expect(failed).toEqual(
      expect.arrayContaining(
        EXPECTED_FAILURES.map(([op, variant, check]) => `${op} ${variant} ${check}`),
      ),
    );
    expect(
      errors.map((r) => `${r.properties!['operation']} ${r.properties!['variant']} ${r.ruleId}`),
    ).toEqual(failed);
    const schema = errors.find((r) => r.ruleId === 'schema')!;
    expect(schema.properties!['pointer']).toBe('/paths/~1Weather~1AirQuality/get');
    expect(schema.locations[0]!.physicalLocation.artifactLocation.uri).toBe('spec/openapi.yaml');
    expect(schema.locations[0]!.logicalLocations![0]!.fullyQualifiedName).toBe(
      'GET /Weather/AirQuality (getAirQuality)',
    );
    expect(schema.message.text).toMatch(/^getAirQuality schema: /);
    // The preview variant of an explicit /demo path is located at that path.
    const preview = errors.find(
      (r) => r.properties!['variant'] === 'preview' && r.ruleId === 'content-type',
    )!;
    expect(preview.properties!['pointer']).toBe('/paths/~1Weather~1AirQuality~1demo/get');
  });

  it('has a warning per description warning and a note per toolkit fault, each rule listed once', () => {
    const run = render().runs[0]!;
    const warning = run.results.find((r) => r.level === 'warning')!;
    expect(warning.ruleId).toBe('undeclared-status');
    expect(warning.properties!['pointer']).toBe('/paths/~1Weather~1AirQuality/get/responses');
    const note = run.results.find((r) => r.level === 'note')!;
    expect(note.ruleId).toBe('toolkit-fault');
    expect(note.properties!['pointer']).toBe('/paths/~1v2~1location~1ip/get');
    const ids = run.tool.driver.rules.map((r) => r.id);
    expect(ids).toEqual([...new Set(run.results.map((r) => r.ruleId))].sort());
    expect(run.tool.driver.rules.find((r) => r.id === 'schema')!.defaultConfiguration.level).toBe(
      'error',
    );
  });

  it('is written as contract-results.sarif by --reporter sarif', async () => {
    const dir = reportDir('sarif');
    const out = new Writable({ write: (_c, _e, cb) => cb() });
    const { files } = await writeReports(fixture(), {
      model,
      reporters: ['sarif'],
      dir,
      root: dir,
      out,
      secrets: [],
      descriptionFile: 'api/openapi.yaml',
    });
    expect(files.map((f) => path.basename(f))).toContain('contract-results.sarif');
    const log = JSON.parse(await readFile(path.join(dir, 'contract-results.sarif'), 'utf8')) as Log;
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
      'api/openapi.yaml',
    );
  });
});
