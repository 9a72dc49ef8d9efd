/**
 * One judging thread of the proxy's pool (judge-pool.ts): judges the exchanges it is sent with the
 * contract's checks and sends back what the reports need, so that forwarding never waits on it.
 */
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { JudgeSetup } from './judge-pool.ts';
import { ExchangeJudge } from './judge-one.ts';
import { decodeBatch, encodeReplies, type WireBatch } from './judge-wire.ts';
import { RecordSample } from './record-sample.ts';

const { model, severity, nice } = workerData as JudgeSetup;
// Forwarding first: on Linux a thread has a nice value of its own, and this one yields the cores
// to the forwarding thread (and to the deployment and load generator on the same machine) while
// still using whatever they leave idle. Elsewhere the value is the whole process's: left alone.
if (process.platform === 'linux' && nice !== undefined && nice !== 0) {
  try {
    os.setPriority(nice);
  } catch {
    // Not allowed here (a container's policy): judged at the process's priority.
  }
}
const judge = new ExchangeJudge(model, severity, new RecordSample());

parentPort!.on('message', (batch: WireBatch) => {
  parentPort!.postMessage(encodeReplies(decodeBatch(batch).map((job) => judge.judge(job))));
});
