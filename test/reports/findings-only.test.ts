/**
 * Issue 47: every report reads failures, description warnings, toolkit faults and what was not
 * tested only from the one finding record (`findings`), and a results file written before that
 * field existed reports the same through findings-of-result.ts. The results are a real run's
 * against the shelf server (a Fastify server nobody here wrote: one planted schema violation,
 * a description silent on some answers, loans only the server has), with a toolkit fault added.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import {
  buildReport,
  renderConsole,
  renderHtml,
  renderJUnit,
  renderSarif,
} from '../../contract-tests/reports/index.ts';
import { faultInput } from '../../contract-tests/findings-of-result.ts';
import type { CheckResult, ContractRunResult } from '../../contract-tests/results.ts';
import { specModel } from '../../scripts/spec-model.ts';
import { ROOT, reportDir, runCli } from '../contract/harness.ts';
import { SHELF_KEY, startShelf, type Shelf } from '../contract/shelf-server.ts';

const SPEC = 'test/fixtures/verdicts/shelf.yaml';
let shelf: Shelf;
let model: ServiceModel;
let run: ContractRunResult;

beforeAll(async () => {
  shelf = await startShelf();
  model = await specModel(path.join(ROOT, SPEC));
  const r = await runCli(
    'contract',
    ['--spec', SPEC, '--base-url', shelf.url, '--allow-writes', '--report-dir', reportDir('fo')],
    'findings-only',
    { DATAAPI_APPKEY: SHELF_KEY },
  );
  run = r.result!;
}, 300_000);
afterAll(() => shelf.close());

const copy = <T>(x: T): T => structuredClone(x);

/** Every report the results render to (console, JUnit, HTML, SARIF), as one text. */
const render = (result: ContractRunResult): string => {
  const report = buildReport(result, model);
  return [
    renderConsole(report),
    renderJUnit(report),
    renderHtml(report),
    renderSarif(report, { model, descriptionFile: SPEC }),
  ].join('\n----\n');
};

const check = (r: ContractRunResult, operation: string, name: string): CheckResult =>
  r.results.find((x) => x.operation === operation && x.variant === 'main' && x.check === name)!;

/** The run with a toolkit fault on listBooks' negative check, in both forms as a run writes it. */
function withFault(): ContractRunResult {
  const r = copy(run);
  const fault = {
    code: 'toolkit-fault' as const,
    operation: 'listBooks',
    check: 'negative',
    purpose: 'negative: query limit not an integer',
    request: { method: 'GET', url: `${shelf.url}/api/v2/books?limit=x` },
    expected: 'a 4xx refusal',
    actual: 'HTTP 200',
    message: 'the request as sent is valid per the description',
  };
  const c = check(r, 'listBooks', 'negative');
  c.toolkitFaults = [fault];
  c.findings = [...c.findings!, { ...faultInput(fault, 'main'), severity: 'not-tested' }];
  r.toolkitFaults = [fault];
  r.findings = [...r.findings!, ...c.findings.filter((f) => f.code === 'toolkit-fault')];
  return r;
}

/** The results with every field reports must no longer read emptied or made wrong. */
function withoutOldFields(full: ContractRunResult): ContractRunResult {
  const r = copy(full);
  for (const c of r.results) {
    delete c.warnings;
    delete c.toolkitFaults;
    delete c.expected;
    delete c.actual;
    delete c.excerpt;
    delete c.notTested;
    c.errors = [];
    if (c.status === 'failed') delete c.request;
    if (c.status === 'failed' || c.message.startsWith('not tested')) c.message = 'stale message';
  }
  r.warnings = [];
  delete r.toolkitFaults;
  return r;
}

describe('reports read only the finding record', () => {
  it('the run wrote findings: a failure, warnings, lacks', () => {
    const codes = new Set(run.findings!.map((f) => `${f.code} ${f.severity}`));
    expect(codes).toContain('schema failure');
    expect(codes).toContain('undeclared-content warning');
    expect(codes).toContain('missing-test-data not-tested');
    expect(check(run, 'listBooks', 'schema').findings!.length).toBeGreaterThan(0);
  });

  it('renders the same with the older fields gone: failures, warnings, faults, lacks from findings', () => {
    const full = withFault();
    const before = render(full);
    expect(before).toContain('Failures (1)');
    expect(before).toContain('/1/title must be string');
    expect(before).toMatch(/Description warnings \(\d+\)/);
    expect(before).toContain('undeclared-content');
    expect(before).toContain('Toolkit faults (1)');
    expect(before).toContain('not tested: missing-test-data');
    expect(render(withoutOldFields(full))).toBe(before);
  });

  it('shows nothing that is only in the older fields', () => {
    const r = withFault();
    const legacy = {
      code: 'undeclared-status' as const,
      pointer: '/legacy',
      message: 'legacy only',
    };
    check(r, 'getHealth', 'status').warnings = [legacy];
    r.warnings = [...r.warnings, legacy];
    check(r, 'getHealth', 'auth').toolkitFaults = [
      { ...r.toolkitFaults![0]!, purpose: 'legacy only purpose' },
    ];
    expect(render(r)).not.toContain('legacy only');
    expect(render(r)).toBe(render(withFault()));
  });

  it('results written before findings existed report the same, through the upgrade', () => {
    const full = withFault();
    const old = copy(full);
    delete old.findings;
    for (const c of old.results) delete c.findings;
    expect(render(old)).toBe(render(full));
  });
});
