/**
 * The CPU one judging thread spends per exchange: the air-quality exchange, as the proxy keeps it
 * from the generated mock, judged the way a judging thread judges it (judge-thread.ts: the
 * judgement, the record sample, the reply serialized as a message is), many times over. It runs
 * the built judge (dist/, `npm run build` first), as the proxy does: the sources through tsx
 * cost differently (esbuild's helpers). Not part of `npm run bench`: a probe for work on the
 * judge itself, run as
 *   node --import tsx bench/proxy-judge-cpu.ts [rounds]
 * It prints µs of thread CPU per exchange for each round and their median; the machine is shared,
 * so compare variants run in turns, not figures from different hours. With `large` as a second
 * argument the exchange is the soak run's 200 kB list instead (bench/servers/soak-upstream.ts):
 *   node --import tsx bench/proxy-judge-cpu.ts [rounds] [air|large]
 */
import http from 'node:http';
import { serialize } from 'node:v8';
import { redactorFor } from '../dist/runtime/shared/index.js';
import { createMockServer } from '../generated/mock/index.ts';
import { model } from '../generated/model.ts';
import { judgedExchange, judgeObserved } from '../dist/contract-tests/proxy/judge.js';
import type { Observed } from '../dist/contract-tests/proxy/observed.js';
import { RecordSample } from '../dist/contract-tests/proxy/record-sample.js';
import { AIR_QUALITY } from './lib/load-table.ts';

const rounds = Number(process.argv[2] ?? 7);
const large = process.argv[3] === 'large';
const WARM = large ? 50 : 1000;
const RUNS = large ? 500 : 5000;

/** The exchange as the proxy keeps it: the mock's real answer, headers as sent. */
async function airQuality(): Promise<Observed> {
  const app = await createMockServer({ rateLimit: false, logger: false });
  const base = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
  try {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${base.origin}${AIR_QUALITY}`, resolve).on('error', reject),
    );
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const pairs = (raw: string[]) =>
      raw.flatMap((v, i) => (i % 2 ? [] : [[v, raw[i + 1]!] as [string, string]]));
    return {
      startedAt: new Date().toISOString(),
      durationMs: 1,
      method: 'GET',
      origin: base.origin,
      pathAndQuery: AIR_QUALITY,
      requestHeaders: [
        ['host', base.host],
        ['user-agent', 'autocannon'],
      ],
      requestBody: Buffer.alloc(0),
      requestSize: 0,
      status: res.statusCode!,
      statusText: res.statusMessage ?? '',
      responseHeaders: pairs(res.rawHeaders),
      responseBody: body,
      responseSize: body.length,
    };
  } finally {
    await app.close();
  }
}

/** The soak run's 200 kB answer: the example's list grown to 200 kB, headers as it sends them. */
function largeList(): Observed {
  const op = model.operations.find((o) => o.id === 'getAirQuality')!;
  const example = op.responses.find((r) => r.status === '200')!.examples[0]!.value as {
    Data: unknown[];
  };
  const list = structuredClone(example);
  while (JSON.stringify(list).length < 200 * 1024) list.Data.push(example.Data[0]);
  const body = Buffer.from(JSON.stringify(list));
  return {
    startedAt: new Date().toISOString(),
    durationMs: 1,
    method: 'GET',
    origin: 'http://127.0.0.1:1',
    pathAndQuery: '/Weather/AirQuality?location=x&appkey=soak-key-0123456789&shape=large',
    requestHeaders: [
      ['Host', '127.0.0.1:1'],
      ['Connection', 'keep-alive'],
    ],
    requestBody: Buffer.alloc(0),
    requestSize: 0,
    status: 200,
    statusText: 'OK',
    responseHeaders: [
      ['content-type', 'application/json; charset=utf-8'],
      ['content-length', String(body.length)],
      ['Date', new Date().toUTCString()],
      ['Connection', 'keep-alive'],
      ['Keep-Alive', 'timeout=70'],
    ],
    responseBody: body,
    responseSize: body.length,
  };
}

const template = large ? largeList() : await airQuality();
const redactor = redactorFor([large ? 'soak-key-0123456789' : 'mock-appkey']);
const sample = new RecordSample();
let findings = 0;

/** Replies cross back in batches, as the thread's do (judge-pool.ts: up to 64 a message). */
const BATCH = 64;
let replies: unknown[] = [];

/**
 * One exchange as judge-thread.ts judges it, each a record of its own as each arrives (its parts
 * are the same: the judge only reads them).
 */
function judgeOne(): void {
  const o: Observed = { ...template };
  const judged = judgedExchange(judgeObserved(model, o, redactor));
  if (judged.operation !== undefined && judged.record) {
    const failing = judged.findings.some((f) => f.finding.severity === 'failure');
    if (!sample.wanted(judged.operation, judged.variant ?? 'main', judged.record, failing))
      delete judged.record;
  }
  findings += judged.findings.length;
  replies.push({ id: 0, judged });
  if (replies.length === BATCH) {
    serialize(replies);
    replies = [];
  }
}

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const results: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < WARM; i++) judgeOne();
  const start = cpu();
  for (let i = 0; i < RUNS; i++) judgeOne();
  results.push((cpu() - start) / RUNS);
}
const sorted = [...results].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
process.stdout.write(
  `rounds (µs/exchange): ${results.map((x) => x.toFixed(1)).join(' ')}\n` +
    `median ${median.toFixed(1)} µs/exchange (fastest round ${sorted[0]!.toFixed(1)}); findings per exchange ${findings / (rounds * (WARM + RUNS))}\n`,
);
