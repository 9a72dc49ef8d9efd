/**
 * One judging thread of the proxy's pool (judge-pool.ts): judges the exchanges it is sent with the
 * contract's checks and sends back what the reports need, so that forwarding never waits on it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { redactorFor } from 'dataapi/runtime/shared';
import { judgedExchange, judgeObserved } from './judge.ts';
import type { JudgeJob, JudgeReply, JudgeSetup } from './judge-pool.ts';
import type { Observed } from './observed.ts';
import { RecordSample } from './record-sample.ts';

const { model, severity } = workerData as JudgeSetup;
let redactor = redactorFor([]);
const sample = new RecordSample();

// A Buffer crosses threads as a plain Uint8Array: give it back its Buffer methods (no copy).
const buffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

parentPort!.on('message', (jobs: JudgeJob[]) => {
  parentPort!.postMessage(jobs.map(judge));
});

function judge(job: JudgeJob): JudgeReply {
  if (job.secrets) redactor = redactorFor(job.secrets);
  // The job is this thread's own copy: its bodies get their Buffer methods in place.
  const o: Observed = job.observed;
  o.requestBody = buffer(o.requestBody);
  o.responseBody = buffer(o.responseBody);
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
