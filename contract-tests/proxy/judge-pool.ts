/**
 * The proxy's judges: a pool of worker threads (judge-thread.ts), sized to the cores, that judge
 * copies of finished exchanges while the forwarding thread goes on forwarding. The queue is
 * bounded: when the judges fall behind, an exchange is passed through unjudged and counted, never
 * held back (the traffic is what QA measures; judging is what may give way).
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ServiceModel, SeveritySettings } from 'dataapi/model';
import type { JudgedExchange } from './judge.ts';
import { ExchangeJudge } from './judge-one.ts';
import type { Observed } from './observed.ts';
import {
  decodeReplies,
  encodeBatch,
  type JudgeReply,
  type WireJob,
  type WireReplies,
} from './judge-wire.ts';

/** What every thread is started with. */
export interface JudgeSetup {
  model: ServiceModel;
  severity?: SeveritySettings;
}

/** An exchange to judge, and the keys to redact when they changed since the thread's last job. */
export type JudgeJob = WireJob;

export type { JudgeReply };

export interface JudgePoolOptions extends JudgeSetup {
  /** Judging threads; 0 judges on the calling thread (still after the exchange, never during). */
  threads?: number;
  /** Exchanges waiting or being judged at most; past it an exchange goes unjudged. */
  maxQueued?: number;
  /** Bytes of bodies waiting or being judged at most. */
  maxQueuedBytes?: number;
  /**
   * onJudged reads the bodies too (a HAR being recorded): they are copied to the judging thread.
   * Otherwise their memory is moved there and onJudged sees them empty.
   */
  keepBodies?: boolean;
  onJudged(o: Observed, j: JudgedExchange): void;
  /**
   * Keys a request carried that its judge had not seen (judges read them, not the forwarding
   * thread): told before the exchange's judgement, so that its output can redact them.
   */
  onKeys(keys: string[]): void;
  /** A judging bug: reported, and the exchange counted as unjudged. */
  onError(message: string): void;
}

/** Two cores or more: one for forwarding, the rest judge. */
export const defaultThreads = () => Math.max(1, os.availableParallelism() - 1);
export const DEFAULT_MAX_QUEUED = 1000;
export const DEFAULT_MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/**
 * How long an exchange may wait to cross to a judging thread with others, ms, and how many. A
 * batch is judged in one burst that holds a core: at 5 ms rather than 20 the bursts are a quarter
 * as long and the p99 through the proxy came down (paced at 1,300 req/s, 7 rounds in turns: 4.60
 * -> 3.87 ms; at full load 9 -> 7 ms), the throughput the same within the spread of the runs.
 */
const BATCH_MS = 5;
const BATCH_MAX = 64;

interface Judge {
  send(job: JudgeJob): void;
  inFlight: number;
  secretsSent: number;
  stop(): Promise<void>;
}

export class JudgePool {
  private judges: Judge[] = [];
  private waiting = new Map<number, { o: Observed; judge: Judge; bytes: number }>();
  private nextId = 0;
  private bytes = 0;
  private secrets: string[] = [];
  private secretsVersion = 0;
  private idle: (() => void)[] = [];
  /** Exchanges judged, and those passed through unjudged because the judges were behind. */
  judged = 0;
  overloaded = 0;
  failed = 0;

  constructor(private o: JudgePoolOptions) {
    const threads = o.threads ?? defaultThreads();
    for (let i = 0; i < threads; i++) this.judges.push(this.thread());
    if (threads === 0) this.judges.push(this.inline());
  }

  /** Keys no judgement may contain (they only grow). */
  setSecrets(secrets: string[]): void {
    if (secrets.length === this.secrets.length) return;
    this.secrets = secrets;
    this.secretsVersion++;
  }

  /** Queues an exchange for judging; false when the queue is full (it goes unjudged). */
  submit(observed: Observed): boolean {
    const bytes = observed.requestBody.length + observed.responseBody.length;
    if (
      this.waiting.size >= (this.o.maxQueued ?? DEFAULT_MAX_QUEUED) ||
      this.bytes + bytes > (this.o.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES)
    ) {
      this.overloaded++;
      return false;
    }
    let judge = this.judges[0]!;
    for (const j of this.judges) if (j.inFlight < judge.inFlight) judge = j;
    const id = this.nextId++;
    this.waiting.set(id, { o: observed, judge, bytes });
    this.bytes += bytes;
    judge.inFlight++;
    const fresh = judge.secretsSent !== this.secretsVersion;
    judge.secretsSent = this.secretsVersion;
    const job: JudgeJob = { id, observed };
    if (fresh) job.secrets = this.secrets;
    judge.send(job);
    return true;
  }

  /** Resolves once every queued exchange is judged. */
  drained(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  async close(): Promise<void> {
    await this.drained();
    await Promise.all(this.judges.map((j) => j.stop()));
  }

  private settle(reply: JudgeReply): void {
    const w = this.waiting.get(reply.id);
    if (!w) return;
    this.waiting.delete(reply.id);
    this.bytes -= w.bytes;
    w.judge.inFlight--;
    if (reply.keys) this.o.onKeys(reply.keys);
    if (reply.judged) {
      this.judged++;
      this.o.onJudged(w.o, reply.judged);
    } else {
      this.failed++;
      this.o.onError(reply.error ?? 'unknown error');
    }
    if (this.waiting.size === 0) for (const r of this.idle.splice(0)) r();
  }

  /** A judge that stopped: what it held is reported as failed, and new work goes to the others. */
  private lost(judge: Judge, why: string): void {
    const index = this.judges.indexOf(judge);
    if (index < 0) return;
    this.judges.splice(index, 1);
    if (this.judges.length === 0) this.judges.push(this.inline());
    for (const [id, w] of this.waiting) if (w.judge === judge) this.settle({ id, error: why });
  }

  private thread(): Judge {
    const fromSource = import.meta.url.endsWith('.ts');
    const worker = new Worker(new URL('./judge-worker.mjs', import.meta.url), {
      workerData: { model: this.o.model, severity: this.o.severity } satisfies JudgeSetup,
      // From the sources, the package's own imports resolve to the sources too.
      ...(fromSource ? { execArgv: ['--conditions=dataapi-source'] } : {}),
    });
    // Idle judges must not keep a finished process alive.
    worker.unref();
    let stopping = false;
    // Exchanges cross in batches, a few milliseconds' worth: each message wakes the judging
    // thread, and under load the wake-ups (one per exchange, or per turn of the event loop) cost
    // the forwarding thread more than everything else it does for judging. The batch's shape is
    // judge-wire.ts's.
    let batch: JudgeJob[] = [];
    let timer: NodeJS.Timeout | undefined;
    const keep = this.o.keepBodies === true;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      const { batch: message, transfer } = encodeBatch(batch, keep);
      worker.postMessage(message, transfer);
      batch = [];
    };
    const judge: Judge = {
      inFlight: 0,
      secretsSent: -1,
      send: (job) => {
        batch.push(job);
        if (batch.length >= BATCH_MAX) flush();
        else timer ??= setTimeout(flush, BATCH_MS);
      },
      stop: async () => {
        stopping = true;
        await worker.terminate();
      },
    };
    worker.on('message', (replies: WireReplies) => {
      for (const r of decodeReplies(replies)) this.settle(r);
    });
    worker.on('error', (err) => this.lost(judge, `a judging thread failed: ${err.message}`));
    worker.on('exit', () => {
      if (!stopping) this.lost(judge, 'a judging thread stopped');
    });
    return judge;
  }

  /** Judging on this thread, one exchange per turn of the event loop (forwarding goes first). */
  private inline(): Judge {
    const one = new ExchangeJudge(this.o.model, this.o.severity);
    return {
      inFlight: 0,
      secretsSent: -1,
      send: (job) => setImmediate(() => this.settle(one.judge(job))),
      stop: async () => undefined,
    };
  }
}
