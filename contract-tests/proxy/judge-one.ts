/**
 * One judge's work on an exchange, on a judging thread (judge-thread.ts) or on the pool's own
 * thread when it has none: the keys the request carried are read here, off the forwarding thread,
 * and redacted from the judgement at once; the ones this judge had not seen go back with it so
 * that the forwarding thread, the other judges and every output learn them too.
 */
import type { ServiceModel, SeveritySettings } from 'dataapi/model';
import { redactorFor } from 'dataapi/runtime/shared';
import { sentKeys, type SentKey } from './credentials.ts';
import { judgedExchange, judgeObserved } from './judge.ts';
import type { JudgeReply, WireJob } from './judge-wire.ts';
import type { RecordSample } from './record-sample.ts';

export class ExchangeJudge {
  private known = new Set<string>();
  private redactor = redactorFor([]);
  private keep: Parameters<typeof judgedExchange>[1];

  constructor(
    private model: ServiceModel,
    private severity?: SeveritySettings,
    /** Only the records the reports may keep go back (the rest are never written). */
    sample?: RecordSample,
  ) {
    if (sample) this.keep = (...a) => sample.wanted(...a);
  }

  judge(job: WireJob): JudgeReply {
    const o = job.observed;
    let keys: SentKey[] = [];
    let fresh: string[] | undefined;
    let learnt = false;
    if (job.secrets)
      for (const s of job.secrets)
        if (!this.known.has(s)) {
          this.known.add(s);
          learnt = true;
        }
    try {
      keys = sentKeys(this.model, o);
      for (const { value } of keys)
        if (!this.known.has(value)) {
          this.known.add(value);
          (fresh ??= []).push(value);
        }
      if (learnt || fresh) this.redactor = redactorFor([...this.known]);
      const judgement = judgeObserved(this.model, o, this.redactor, this.severity, keys);
      const judged = judgedExchange(judgement, this.keep);
      return fresh ? { id: job.id, judged, keys: fresh } : { id: job.id, judged };
    } catch (err) {
      if (learnt || fresh) this.redactor = redactorFor([...this.known]);
      const error = this.redactor.text((err as Error).message);
      return fresh ? { id: job.id, error, keys: fresh } : { id: job.id, error };
    }
  }
}
