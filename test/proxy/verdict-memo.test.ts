/**
 * The proxy's memo of verdicts (proxy/verdict-memo.ts): an exchange byte for byte like one judged
 * before gets that judgement (its own timing kept), on a real judging thread; anything that
 * differs, or a key learnt since, is judged afresh.
 */
import { afterEach, expect, it } from 'vitest';
import { JudgePool } from '../../contract-tests/proxy/judge-pool.ts';
import type { JudgedExchange } from '../../contract-tests/proxy/judge.ts';
import type { Observed } from '../../contract-tests/proxy/observed.ts';
import { model } from '../../generated/model.ts';
import { KEY } from './harness.ts';

const example = structuredClone(
  model.operations.find((o) => o.id === 'getIpLocation')!.responses.find((r) => r.status === '200')!
    .examples[0]!.value,
) as { dataStatus: { statusCode: number } };
example.dataStatus.statusCode = 999; // not a code of its group: a business-code failure

const exchange = (durationMs: number, body = JSON.stringify(example)): Observed => ({
  startedAt: '2026-11-29T00:00:00.000Z',
  durationMs,
  method: 'GET',
  origin: 'http://127.0.0.1:1',
  pathAndQuery: `/v2/location/ip?ip=1.2.3.4&appkey=${KEY}`,
  requestHeaders: [['host', '127.0.0.1:1']],
  requestBody: Buffer.alloc(0),
  requestSize: 0,
  status: 200,
  statusText: 'OK',
  responseHeaders: [['content-type', 'application/json; charset=utf-8']],
  responseBody: Buffer.from(body),
  responseSize: Buffer.byteLength(body),
});

let pool: JudgePool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function judging(memo?: number) {
  const judged: JudgedExchange[] = [];
  pool = new JudgePool({
    model,
    threads: 1,
    ...(memo !== undefined ? { memo } : {}),
    onJudged: (_o, j) => judged.push(j),
    onError: (m) => {
      throw new Error(m);
    },
  });
  pool.setSecrets([KEY]);
  return { pool, judged };
}

it('gives a byte-identical exchange the judgement of the one before, with its own timing', async () => {
  const { pool, judged } = judging();
  pool.submit(exchange(5));
  await pool.drained();
  pool.submit(exchange(7));
  await pool.drained();
  expect(pool.remembered).toBe(1);
  expect(pool.judged).toBe(2);
  const [first, again] = judged as [JudgedExchange, JudgedExchange];
  expect(first.findings.map((f) => f.check)).toContain('business-code');
  expect(again.findings).toEqual(first.findings);
  expect(again.record!.durationMs).toBe(7);
  expect({ ...again.record, durationMs: 5 }).toEqual(first.record);
  expect(JSON.stringify(judged)).not.toContain(KEY);
});

it('judges afresh what differs by one byte, and everything once a new key is learnt', async () => {
  const { pool, judged } = judging();
  pool.submit(exchange(5));
  await pool.drained();
  const fixed = structuredClone(example);
  fixed.dataStatus.statusCode = 100;
  pool.submit(exchange(5, JSON.stringify(fixed)));
  await pool.drained();
  expect(pool.remembered).toBe(0);
  expect(judged[1]!.findings.map((f) => f.check)).not.toContain('business-code');
  pool.setSecrets([KEY, 'another-key-learnt-later']);
  pool.submit(exchange(5));
  await pool.drained();
  expect(pool.remembered).toBe(0);
  expect(pool.judged).toBe(3);
});

it('remembers nothing with memo 0', async () => {
  const { pool } = judging(0);
  for (const ms of [1, 2, 3]) {
    pool.submit(exchange(ms));
    await pool.drained();
  }
  expect(pool.judged).toBe(3);
  expect(pool.remembered).toBe(0);
});
