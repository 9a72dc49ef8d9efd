/**
 * The runner as QA uses it: the whole suite passes against the conforming mock; an unreachable
 * target is a clear failure; writes need --allow-writes; the budget, sharding and the rate limits
 * hold; the key never shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMockServer } from '../../generated/mock/index.ts';
import { model } from '../../generated/model.ts';
import { CHECKS, PREVIEW_CHECKS } from '../../contract-tests/results.ts';
import { KEY, failedOf, runCli } from './harness.ts';
import { startProxy } from './proxy.ts';

describe('against the embedded mock (no --base-url)', () => {
  it('passes every check of every operation, with results for each (operation, variant, check)', async () => {
    const run = await runCli('contract', [], 'embedded-mock');
    expect(failedOf(run), run.stdout.slice(-3000) + run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    const r = run.result!;
    expect(r.target.embeddedMock).toBe(true);
    expect(r.summary.failed).toBe(0);
    expect(r.errors).toEqual([]);
    const previews = model.operations.filter((o) => o.preview).length;
    expect(r.results).toHaveLength(
      model.operations.length * CHECKS.length + previews * PREVIEW_CHECKS.length,
    );
    expect(r.coverage.operations).toEqual(model.operations.map((o) => o.id).sort());
    expect(r.coverage.previews).toHaveLength(previews);
    expect(r.coverage.statuses['getGlobalUniversityRanking']).toEqual(
      expect.arrayContaining([200, 400, 401, 404, 405]),
    );
    expect(r.coverage.parameters['getGlobalUniversityRanking']).toContain('query.pageSize');
    expect(run.stdout + JSON.stringify(r)).not.toContain(KEY);
  });
});

describe('against a deployment', () => {
  let mock: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    mock = await createMockServer({ appkeys: [KEY] });
    await mock.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(mock.server.address() as { port: number }).port}`;
  });
  afterAll(() => mock?.close());

  it('reports an unreachable target clearly (exit 1, no stack, key not shown)', async () => {
    const run = await runCli(
      'contract',
      ['--base-url', `http://127.0.0.1:9/?appkey=${KEY}`],
      'unreachable',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot reach the target/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr + run.stdout).not.toContain(KEY);
  });

  it('refuses an unknown operation in --only (exit 2)', async () => {
    const run = await runCli('contract', ['--base-url', url, '--only', 'noSuchOp'], 'unknown-op');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown operation "noSuchOp"/);
  });

  it('skips operations that write unless --allow-writes, and says so', async () => {
    const run = await runCli(
      'contract',
      ['--base-url', url, '--only', 'uploadKnowledgeBaseDocuments'],
      'no-writes',
    );
    expect(run.code).toBe(0);
    const r = run.result!;
    expect(r.summary.requests).toBe(0);
    expect(r.results.length).toBeGreaterThan(0);
    for (const x of r.results) {
      expect(x.status).toBe('skipped');
      expect(x.message).toMatch(/--allow-writes/);
    }
  });

  it('stops at the request budget and skips the checks it could not feed', async () => {
    const run = await runCli(
      'contract',
      ['--base-url', url, '--only', 'getGlobalUniversityRanking', '--budget', '3'],
      'budget',
    );
    const r = run.result!;
    expect(r.summary.requests).toBe(3);
    expect(r.budgetExhausted).toBe(true);
    expect(r.results.some((x) => x.status === 'skipped' && /budget/.test(x.message))).toBe(true);
    expect(r.summary.failed).toBe(0);
  });

  it('runs one shard of the files with --shard', async () => {
    const run = await runCli(
      'contract',
      ['--base-url', url, '--only', 'getFundBasicIndex,getFundBasicInfo', '--shard', '1/2'],
      'shard',
    );
    expect(run.code).toBe(0);
    expect(new Set(run.result!.results.map((x) => x.operation)).size).toBe(1);
    // It announces the files it runs, not every file of the suite.
    expect(run.stdout).toContain('running 1 operation file (shard 1/2 of 2)');
    expect(run.stdout.match(/\[\d+\/\d+\]/g)).toEqual(['[1/1]']);
  });

  it("never exceeds an operation's declared rate limit (main and preview together)", async () => {
    const arrivals: number[] = [];
    const proxy = await startProxy(url, [
      {
        path: '/ai/admission/major-line-rank',
        onArrival: () => arrivals.push(performance.now()),
      },
    ]);
    try {
      const run = await runCli(
        'contract',
        ['--base-url', proxy.url, '--only', 'rankAdmissionMajorLines', '--allow-writes'],
        'pacing',
      );
      expect(failedOf(run)).toEqual([]);
      const op = model.operations.find((o) => o.id === 'rankAdmissionMajorLines')!;
      expect(arrivals.length).toBeGreaterThan(op.rateLimit.limit * 2);
      // Any window of the declared length holds at most `limit` arrivals.
      for (let i = op.rateLimit.limit; i < arrivals.length; i++)
        expect(arrivals[i]! - arrivals[i - op.rateLimit.limit]!).toBeGreaterThanOrEqual(
          op.rateLimit.windowMs,
        );
      // No 429 had to be retried: the pacing kept under the mock's own limiter.
      expect(run.result!.results.every((x) => x.exchanges.every((e) => e.retries === 0))).toBe(
        true,
      );
    } finally {
      await proxy.close();
    }
  });

  it("overlaps operations in one worker: another operation's requests go out while one is paced", async () => {
    const seen: Record<string, number[]> = { ip: [], rank: [] };
    const proxy = await startProxy(url, [
      { path: '/v2/location/ip', onArrival: () => seen.ip!.push(performance.now()) },
      {
        path: '/ai/admission/major-line-rank',
        onArrival: () => seen.rank!.push(performance.now()),
      },
    ]);
    try {
      const run = await runCli(
        'contract',
        [
          '--base-url',
          proxy.url,
          '--only',
          'getIpLocation,rankAdmissionMajorLines',
          '--allow-writes',
        ],
        'overlap',
      );
      expect(failedOf(run)).toEqual([]);
      const [ip, rank] = [seen.ip!, seen.rank!];
      // Both are paced at 5 per second and send more than that: one at a time, their arrivals
      // would not interleave.
      expect(ip.length).toBeGreaterThan(5);
      expect(rank.length).toBeGreaterThan(5);
      expect(Math.min(...rank)).toBeLessThan(Math.max(...ip));
      expect(Math.min(...ip)).toBeLessThan(Math.max(...rank));
    } finally {
      await proxy.close();
    }
  });
});
