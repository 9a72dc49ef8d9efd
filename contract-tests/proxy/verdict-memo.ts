/**
 * Verdicts remembered by the bytes of the exchange. Judging is a pure function of what was sent
 * and answered, given the model, the severity settings and the keys to redact (fixed for the
 * memo's life: it is cleared when a new key is learnt). A load test sends the same requests over
 * and over: an exchange byte for byte like one judged before gets that judgement again, without
 * being copied to a judging thread and judged twice. Only its own timing is its own.
 */
import { createHash } from 'node:crypto';
import type { JudgedExchange } from './judge.ts';
import type { Observed } from './observed.ts';

/** Judgements kept (the oldest goes first): a load test's distinct exchanges, not its traffic. */
export const DEFAULT_MEMO_SIZE = 1000;
/**
 * Bodies past this size are judged afresh: hashing them would cost the forwarding thread more
 * than handing them to a judge does.
 */
const MEMO_BODY_LIMIT = 64 * 1024;

export class VerdictMemo {
  private judged = new Map<string, JudgedExchange>();
  /** Exchanges given a remembered judgement. */
  hits = 0;

  constructor(private readonly capacity = DEFAULT_MEMO_SIZE) {}

  /** Everything a judgement reads of the exchange, hashed: the key of its verdict. */
  keyOf(o: Observed): string | undefined {
    if (this.capacity === 0) return undefined;
    if (o.requestBody.length + o.responseBody.length > MEMO_BODY_LIMIT) return undefined;
    const h = createHash('sha256');
    // Each text with its length before it: no two different exchanges give the same stream.
    const text = (s: string | number | boolean | undefined) => {
      const t = s === undefined ? '\u0000' : String(s);
      h.update(`${t.length}:${t}`);
    };
    for (const v of [o.method, o.origin, o.pathAndQuery, o.status, o.statusText, o.error]) text(v);
    for (const v of [o.gatewayStatus, o.aborted, o.requestSize, o.responseSize]) text(v);
    for (const pairs of [o.requestHeaders, o.responseHeaders]) {
      text(pairs.length);
      for (const [k, v] of pairs) (text(k), text(v));
    }
    for (const body of [o.requestBody, o.responseBody]) {
      text(body.length);
      h.update(body);
    }
    return h.digest('base64');
  }

  /** The judgement of an exchange like this one judged before, with this one's timing. */
  recall(key: string, o: Observed): JudgedExchange | undefined {
    const j = this.judged.get(key);
    if (!j) return undefined;
    this.hits++;
    return j.record ? { ...j, record: { ...j.record, durationMs: o.durationMs } } : j;
  }

  remember(key: string, j: JudgedExchange): void {
    if (this.judged.size >= this.capacity) this.judged.delete(this.judged.keys().next().value!);
    this.judged.set(key, j);
  }

  /** A new key to redact: judgements made before it may show it. */
  clear(): void {
    this.judged.clear();
  }
}
