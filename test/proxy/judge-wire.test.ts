/**
 * Exchanges cross to a judging thread in judge-wire.ts's shape (flat headers, small bodies in one
 * moved buffer, large ones moved whole): through a real message channel, every exchange arrives
 * as it was sent, field for field and byte for byte, in a batch of mixed shapes.
 */
import { randomBytes } from 'node:crypto';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decodeBatch,
  decodeReplies,
  encodeBatch,
  encodeReplies,
  type JudgeReply,
  type WireBatch,
  type WireJob,
  type WireReplies,
} from '../../contract-tests/proxy/judge-wire.ts';
import type { Observed } from '../../contract-tests/proxy/observed.ts';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

/** One batch sent through a real channel, as a judging thread receives it. */
async function across(jobs: WireJob[], keep: boolean): Promise<WireJob[]> {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const arrived = new Promise<WireBatch>((r) => port2.once('message', r));
  const { batch, transfer } = encodeBatch(jobs, keep);
  port1.postMessage(batch, transfer);
  return decodeBatch(await arrived);
}

const base = (i: number): Observed => ({
  startedAt: `2026-11-30T01:00:0${i}.000Z`,
  durationMs: 1.5 + i,
  method: i % 2 ? 'POST' : 'GET',
  origin: 'http://127.0.0.1:9',
  pathAndQuery: `/Weather/AirQuality?city=c${i}`,
  requestHeaders: [
    ['Host', '127.0.0.1:9'],
    ['X-Dup', 'a'],
    ['x-dup', `b${i}`],
  ],
  requestBody: Buffer.alloc(0),
  requestSize: 0,
  responseHeaders: [['content-type', 'application/json; charset=utf-8']],
  responseBody: Buffer.alloc(0),
  responseSize: 0,
});

/** Mixed shapes: every optional field, empty, small, slab-backed, large (moved) bodies. */
function exchanges(): Observed[] {
  const small = Buffer.from('{"ok":true,"é":"ü"}');
  const large = Buffer.allocUnsafeSlow(200 * 1024);
  randomBytes(large.length).copy(large);
  // A large body that is a view on bigger memory (it must be copied, not moved whole).
  const view = randomBytes(300 * 1024).subarray(1000, 1000 + 100 * 1024);
  return [
    { ...base(0), status: 200, statusText: 'OK', responseBody: small, responseSize: small.length },
    {
      ...base(1),
      requestBody: Buffer.from('a=1&b=2'),
      requestSize: 7,
      status: 502,
      statusText: '',
      responseBody: large,
      responseSize: large.length + 10,
      aborted: true,
    },
    { ...base(2), error: 'ECONNREFUSED: refused', gatewayStatus: 502 },
    { ...base(3), requestBody: view, requestSize: view.length, status: 201, statusText: 'Created' },
    { ...base(4), status: 204, statusText: 'No Content', responseHeaders: [] },
  ];
}

/** What the judge reads of an exchange, bodies as bytes. */
const plain = (o: Observed) => ({
  ...o,
  requestBody: [...o.requestBody],
  responseBody: [...o.responseBody],
});

describe('the judging batch', () => {
  it('carries every exchange as it was, field for field and byte for byte', async () => {
    const sent = exchanges();
    const expected = sent.map(plain);
    const jobs: WireJob[] = sent.map((observed, id) => ({ id: 10 + id, observed }));
    jobs[0]!.secrets = ['k1', 'k2'];
    const got = await across(jobs, true);
    expect(got.map((j) => j.id)).toEqual([10, 11, 12, 13, 14]);
    expect(got[0]!.secrets).toEqual(['k1', 'k2']);
    expect(got.slice(1).every((j) => j.secrets === undefined)).toBe(true);
    expect(got.map((j) => plain(j.observed))).toEqual(expected);
    // The bodies arrive as Buffers (the judge calls Buffer methods on them).
    for (const j of got) expect(Buffer.isBuffer(j.observed.responseBody)).toBe(true);
    // Kept: the sender's bodies are untouched.
    expect(sent.map(plain)).toEqual(expected);
  });

  it("empties the sender's bodies when it does not keep them, and carries them all the same", async () => {
    const sent = exchanges();
    const expected = sent.map(plain);
    const got = await across(
      sent.map((observed, id) => ({ id, observed })),
      false,
    );
    expect(got.map((j) => plain(j.observed))).toEqual(expected);
    for (const o of sent) {
      expect(o.requestBody.length).toBe(0);
      expect(o.responseBody.length).toBe(0);
    }
  });

  it('carries the judgements back as they were, plain ones as text and the rest cloned', async () => {
    const judged = ['status', 'schema'] as const;
    const replies: JudgeReply[] = [
      { id: 1, judged: { findings: [], judged: [...judged], variant: 'main', operation: 'op' } },
      { id: 2, error: 'a judging bug' },
      {
        id: 3,
        judged: {
          findings: [],
          judged: [...judged],
          operation: 'op',
          record: { durationMs: Number.NaN } as never,
        },
      },
      { id: 4, judged: { findings: [], judged: [] } },
    ];
    const wire = encodeReplies(replies);
    // Only those with no finding and no record go as text (JSON would turn NaN into null).
    expect((JSON.parse(wire.plain) as JudgeReply[]).map((r) => r.id)).toEqual([1, 4]);
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    const arrived = new Promise<WireReplies>((r) => port2.once('message', r));
    port1.postMessage(wire);
    const got = decodeReplies(await arrived);
    expect([...got].sort((a, b) => a.id - b.id)).toEqual(replies);
    expect(Number.isNaN(got.find((r) => r.id === 3)!.judged!.record!.durationMs)).toBe(true);
  });
});
