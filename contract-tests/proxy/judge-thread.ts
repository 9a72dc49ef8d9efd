/**
 * One judging thread of the proxy's pool (judge-pool.ts): judges the exchanges it is sent with the
 * contract's checks and sends back what the reports need, so that forwarding never waits on it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { JudgeSetup } from './judge-pool.ts';
import { ExchangeJudge } from './judge-one.ts';
import { decodeBatch, encodeReplies, type WireBatch } from './judge-wire.ts';
import { RecordSample } from './record-sample.ts';

const { model, severity } = workerData as JudgeSetup;
const judge = new ExchangeJudge(model, severity, new RecordSample());

parentPort!.on('message', (batch: WireBatch) => {
  parentPort!.postMessage(encodeReplies(decodeBatch(batch).map((job) => judge.judge(job))));
});
