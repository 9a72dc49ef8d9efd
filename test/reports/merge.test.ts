/**
 * mergeResults on small hand-made runs: how the verdicts of one check from several runs combine,
 * and that counts, coverage and warnings are worked out again rather than added up.
 */
import { describe, expect, it } from 'vitest';
import { mergeResults } from '../../contract-tests/merge/merge-results.ts';
import type {
  CheckResult,
  ContractRunResult,
  DescriptionWarning,
  ExchangeRecord,
  FuzzStats,
} from '../../contract-tests/results.ts';

const exchange = (status: number, parameters: string[] = []): ExchangeRecord => ({
  request: { method: 'GET', url: `http://127.0.0.1:1/a?s=${status}`, purpose: 'valid request' },
  status,
  durationMs: 5,
  waitedMs: 0,
  retries: 0,
  parameters,
});

function check(
  operation: string,
  check: CheckResult['check'],
  status: CheckResult['status'],
  more: Partial<CheckResult> = {},
): CheckResult {
  return {
    operation,
    variant: 'main',
    check,
    status,
    message: `${check} ${status}`,
    errors: [],
    durationMs: 10,
    waitedMs: 1,
    exchanges: [exchange(200)],
    ...more,
  };
}

function run(results: CheckResult[], more: Partial<ContractRunResult> = {}): ContractRunResult {
  const summary = { passed: 0, failed: 0, skipped: 0, requests: 7, warnings: 0 };
  for (const r of results) summary[r.status]++;
  return {
    version: 1,
    target: { baseUrl: 'http://127.0.0.1:1', embeddedMock: true, keyProvided: true },
    options: { timeoutMs: 10000, allowWrites: true },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1000,
    summary,
    budgetExhausted: false,
    results,
    coverage: { operations: [], previews: [], statuses: {}, businessCodes: {}, parameters: {} },
    errors: [],
    warnings: [],
    ...more,
  };
}

const warning = (message: string, pointer = '/paths/~1a/get/responses'): DescriptionWarning => ({
  code: 'undeclared-status',
  pointer,
  operation: 'getA',
  message,
});

describe('mergeResults: one check from several runs', () => {
  it('failed in one run and passed in another is failed, with the failing run’s detail', () => {
    const failed = check('getA', 'schema', 'failed', {
      message: 'body invalid',
      errors: ['/Data must be array'],
      exchanges: [exchange(200), exchange(500)],
    });
    const again = check('getA', 'schema', 'failed', {
      message: 'body invalid elsewhere',
      errors: ['/Data must be array', '/Total must be integer'],
    });
    const merged = mergeResults([
      run([check('getA', 'schema', 'passed')]),
      run([failed], { startedAt: '2026-01-01T00:00:01.000Z' }),
      run([again], { startedAt: '2026-01-01T00:00:02.000Z' }),
    ]);
    expect(merged.results).toHaveLength(1);
    const r = merged.results[0]!;
    expect(r.status).toBe('failed');
    expect(r.message).toBe('body invalid');
    // Every failing run's violations, each once.
    expect(r.errors).toEqual(['/Data must be array', '/Total must be integer']);
    // Every run's requests, their time added up.
    expect(r.exchanges.map((e) => e.status)).toEqual([200, 200, 500, 200]);
    expect([r.durationMs, r.waitedMs]).toEqual([30, 3]);
    expect(merged.summary).toMatchObject({ passed: 0, failed: 1, skipped: 0 });
  });

  it('passed in one and skipped in another is passed; skipped everywhere stays skipped', () => {
    const skipped = (op: string) =>
      check(op, 'auth', 'skipped', { notTested: 'no-credentials', exchanges: [] });
    const merged = mergeResults([
      run([skipped('getA'), skipped('getB')]),
      run([check('getA', 'auth', 'passed'), skipped('getB')], { startedAt: 'later' }),
    ]);
    expect(merged.results.map((r) => [r.operation, r.status, r.notTested])).toEqual([
      ['getA', 'passed', undefined],
      ['getB', 'skipped', 'no-credentials'],
    ]);
    expect(merged.summary).toMatchObject({ passed: 1, failed: 0, skipped: 1 });
  });

  it('keeps the runner’s order: operation, main before preview, then the checks’ order', () => {
    const merged = mergeResults([
      run([check('getB', 'status', 'passed'), check('getA', 'schema', 'passed')]),
      run(
        [
          check('getA', 'status', 'passed', { variant: 'preview' }),
          check('getA', 'status', 'passed'),
        ],
        { startedAt: 'later' },
      ),
    ]);
    expect(merged.results.map((r) => `${r.operation} ${r.variant} ${r.check}`)).toEqual([
      'getA main status',
      'getA main schema',
      'getA preview status',
      'getB main status',
    ]);
  });
});

describe('mergeResults: counted again, not added up', () => {
  it('lists a warning two runs both gave once, and different ones at one pointer each', () => {
    const same = warning('HTTP 418 is not declared');
    const merged = mergeResults([
      run([check('getA', 'status', 'passed', { warnings: [same] })], { warnings: [same] }),
      run(
        [
          check('getA', 'status', 'passed', {
            warnings: [same, warning('HTTP 501 is not declared')],
          }),
        ],
        { warnings: [same, warning('HTTP 501 is not declared')], startedAt: 'later' },
      ),
    ]);
    expect(merged.warnings.map((w) => w.message)).toEqual([
      'HTTP 418 is not declared',
      'HTTP 501 is not declared',
    ]);
    expect(merged.summary.warnings).toBe(2);
    expect(merged.results[0]!.warnings!.map((w) => w.message)).toEqual([
      'HTTP 418 is not declared',
      'HTTP 501 is not declared',
    ]);
  });

  it('lists a toolkit fault two runs both found once', () => {
    const fault = {
      code: 'toolkit-fault' as const,
      operation: 'getA',
      check: 'negative',
      purpose: 'negative: query q missing (required)',
      request: { method: 'GET', url: 'http://127.0.0.1:1/a' },
      expected: 'HTTP 400',
      actual: 'HTTP 200',
      message: 'the description admits the request as sent',
    };
    const faulty = (startedAt: string) =>
      run([check('getA', 'negative', 'passed', { toolkitFaults: [fault] })], { startedAt });
    const merged = mergeResults([faulty('a'), faulty('b')]);
    expect(merged.toolkitFaults).toEqual([fault]);
    expect(merged.summary.toolkitFaults).toBe(1);
  });

  it('adds up the findings each proxy counted but did not keep', () => {
    const proxy = (startedAt: string, notKept: number, undocumented: number) =>
      run([check('getA', 'status', 'failed', { findingsNotKept: notKept })], {
        startedAt,
        findingsNotKept: notKept + undocumented,
      });
    const merged = mergeResults([proxy('a', 30, 5), proxy('b', 12, 0)]);
    expect(merged.results[0]!.findingsNotKept).toBe(42);
    expect(merged.findingsNotKept).toBe(47);
    // Runs that kept every finding say nothing of it.
    const whole = mergeResults([run([check('getA', 'status', 'passed')])]);
    expect(Object.hasOwn(whole, 'findingsNotKept')).toBe(false);
  });

  it('covers an operation two runs reached once, with what either saw', () => {
    const merged = mergeResults([
      run([check('getA', 'status', 'passed', { exchanges: [exchange(200, ['query.q'])] })]),
      run(
        [
          check('getA', 'negative', 'passed', { exchanges: [exchange(400, ['query.q'])] }),
          check('getB', 'status', 'passed', { exchanges: [exchange(200)] }),
        ],
        { startedAt: 'later' },
      ),
    ]);
    expect(merged.coverage).toEqual({
      operations: ['getA', 'getB'],
      previews: [],
      statuses: { getA: [200, 400], getB: [200] },
      businessCodes: {},
      parameters: { getA: ['query.q'] },
    });
    // Requests each run sent, and the time each took, add up.
    expect(merged.summary.requests).toBe(14);
    expect(merged.durationMs).toBe(2000);
    expect(merged.startedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('is a whole run once every shard of one split is in, else names the shards it holds', () => {
    const shard = (s: string) =>
      run([check(`op${s[0]}`, 'status', 'passed')], {
        options: { timeoutMs: 10000, allowWrites: true, shard: s },
        startedAt: s,
      });
    expect(mergeResults(['1/3', '2/3', '3/3'].map(shard)).options.shard).toBeUndefined();
    const part = mergeResults([shard('3/3'), shard('1/3')]);
    expect(part.options.shard).toBe('1/3,3/3');
    // Merged results merge again.
    expect(mergeResults([part, shard('2/3')]).options.shard).toBeUndefined();
  });

  it('names the deployments of several proxies, and the embedded mock once', () => {
    const at = (baseUrl: string, embeddedMock: boolean) =>
      run([], { target: { baseUrl, embeddedMock }, startedAt: baseUrl });
    expect(
      mergeResults([at('http://127.0.0.1:1', true), at('http://127.0.0.1:2', true)]).target,
    ).toEqual({ baseUrl: 'http://127.0.0.1:1', embeddedMock: true });
    expect(
      mergeResults([at('https://a.example', false), at('https://b.example', false)]).target.baseUrl,
    ).toBe('https://a.example, https://b.example');
  });

  it('puts the operations two shards fuzzed side by side', () => {
    const stats = (requests: number): FuzzStats => ({
      seed: 1,
      runs: { valid: 2, invalid: 2, link: 0 },
      requests,
      shrinkRequests: 0,
      discarded: 0,
      findings: 0,
      coverage: {
        presence: {},
        enums: { 'query.lang': { declared: ['zh', 'en'], sent: requests > 4 ? ['en'] : ['zh'] } },
        boundaries: {},
      },
    });
    const fuzzed = (op: string, requests: number) =>
      run([], {
        fuzz: { seed: 42, runs: 2, seedChosen: false, operations: { [op]: stats(requests) } },
        startedAt: `${op}${requests}`,
      });
    const merged = mergeResults([fuzzed('getB', 4), fuzzed('getA', 4), fuzzed('getA', 5)]);
    expect(Object.keys(merged.fuzz!.operations)).toEqual(['getA', 'getB']);
    expect(merged.fuzz!.operations['getA']!.requests).toBe(9);
    expect(merged.fuzz!.operations['getA']!.coverage.enums['query.lang']!.sent).toEqual([
      'zh',
      'en',
    ]);
    expect(merged.fuzz!.seedChosen).toBe(false);
  });
});
