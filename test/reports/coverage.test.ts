/**
 * Coverage against the model, computed from the committed results of a real failing run
 * (fixture.ts): operations in and out of the run, declared HTTP statuses, business codes and
 * parameters reached and never reached.
 */
import { describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { buildReport } from '../../contract-tests/reports/index.ts';
import { loadFixture } from './fixture.ts';

const report = () => buildReport(loadFixture(), model);

describe('coverage against the model', () => {
  const c = report().coverageReport;

  it('scopes to the operations of the run (--only) and lists the rest as not in the run', () => {
    expect(c.totals.operations).toEqual({ covered: 11, total: 11 });
    expect(c.operations.notInRun).toHaveLength(model.operations.length - 11);
    expect(c.operations.notInRun).toContain('predictAdmission');
    expect(c.totals.previews).toEqual({ covered: 5, total: 5 });
  });

  it('says which declared HTTP statuses were reached and which never were', () => {
    expect(c.statuses.getAirQuality!.covered).toEqual(['200', '400', '401', '404', '405']);
    expect(c.statuses.getAirQuality!.missed).toEqual(['403', '415', '429', '500', '502']);
    // The fixture's server answered 203 instead of 200: 200 was never reached, 203 is undeclared.
    expect(c.statuses.getFundBasicIndex!.missed).toContain('200');
    expect(c.statuses.getFundBasicIndex!.undeclared).toEqual([203]);
  });

  it('matches range and default response keys', () => {
    const m = structuredClone(model);
    const op = m.operations.find((o) => o.id === 'getAirQuality')!;
    op.responses = ['200', '4XX', '404', 'default'].map((status) => ({
      status,
      description: '',
      kind: 'json' as const,
      headers: [],
      examples: [],
    }));
    const s = buildReport(loadFixture(), m).coverageReport.statuses.getAirQuality!;
    // 400, 401, 405 fall under 4XX; 404 has its own key; nothing reached 'default'.
    expect(s.covered).toEqual(['200', '4XX', '404']);
    expect(s.missed).toEqual(['default']);
  });

  it('counts business codes per group and parameters per operation', () => {
    expect(c.businessCodes.A).toMatchObject({
      operations: ['getAirQuality', 'getGlobalUniversityRanking'],
      covered: [100, 101, 104],
      missed: [102, 103, 110],
    });
    expect(c.parameters.getAirQuality).toEqual({
      declared: ['query.city', 'query.lang', 'query.location'],
      covered: ['query.city', 'query.lang', 'query.location'],
      missed: [],
    });
    // Multipart body properties come from the body schema ($ref resolved in the schema root).
    expect(c.parameters.uploadKnowledgeBaseDocuments!.declared).toContain('body.files');
    const total = Object.values(c.parameters).reduce((n, p) => n + p.declared.length, 0);
    expect(c.totals.parameters.total).toBe(total);
  });

  it('scopes a shard to the operations it ran', () => {
    const r = loadFixture();
    delete r.options.only;
    r.options.shard = '1/2';
    r.results = r.results.filter((x) => x.operation.startsWith('getFund'));
    const cov = buildReport(r, model).coverageReport;
    expect(cov.totals.operations.total).toBe(6);
    expect(Object.keys(cov.statuses).every((op) => op.startsWith('getFund'))).toBe(true);
    expect(cov.operations.notInRun).toContain('getAirQuality');
  });

  it('counts an operation that never answered as never reached', () => {
    const r = loadFixture();
    r.coverage.operations = r.coverage.operations.filter((o) => o !== 'getSslCertInfo');
    const cov = buildReport(r, model).coverageReport;
    expect(cov.operations.missed).toEqual(['getSslCertInfo']);
    expect(cov.totals.operations).toEqual({ covered: 10, total: 11 });
  });
});
