/**
 * One judging thread of the proxy's pool (judge-pool.ts): judges the exchanges it is sent with the
 * contract's checks and sends back what the reports need, so that forwarding never waits on it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { redactorFor } from 'dataapi/runtime/shared';
import { judgedExchange, judgeObserved } from './judge.ts';
import type { JudgeJob, JudgeReply, JudgeSetup } from './judge-pool.ts';
import { decodeBatch, type WireBatch } from './judge-wire.ts';
import { RecordSample } from './record-sample.ts';

const { model, severity } = workerData as JudgeSetup;
let redactor = redactorFor([]);
const sample = new RecordSample();

parentPort!.on('message', (batch: WireBatch) => {
  parentPort!.postMessage(decodeBatch(batch).map(judge));
});

function judge(job: JudgeJob): JudgeReply {
  if (job.secrets) redactor = redactorFor(job.secrets);
  const o = job.observed;
  try {
    const judged = judgedExchange(judgeObserved(model, o, redactor, severity));
    // Only the records the reports may keep cross back (the rest are never written).
    if (judged.operation !== undefined && judged.record) {
      const failing = judged.findings.some((f) => f.finding.severity === 'failure');
      if (!sample.wanted(judged.operation, judged.variant ?? 'main', judged.record, failing))
        delete judged.record;
    }
    return { id: job.id, judged };
  } catch (err) {
    return { id: job.id, error: (err as Error).message };
  }
}
