/**
 * The runner's scheduler reached over a BroadcastChannel, for vitest workers that are threads of
 * the runner's own process (the contract suite's pool). Loopback HTTP cost every request two round
 * trips through both threads' HTTP stacks (GitHub's 8,212 requests: about 6 s of the run's CPU);
 * a channel message is a structured clone, and a release needs no answer: messages from one
 * channel arrive in the order they were posted, so a worker's release is always applied before its
 * next acquire or retry question. Workers in other processes keep RemoteScheduler (HTTP).
 */
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { RateLimit } from 'dataapi/model';
import type { Grant, LocalScheduler, Outcome, Scheduler } from './scheduler.ts';
import type { DescriptionWarning } from './warnings.ts';

type Ask =
  | { ask: 'acquire'; id: string; key: string; limits: RateLimit[]; route?: string }
  | { ask: 'release'; key: string; token: number; outcome?: Outcome }
  | { ask: 'retry'; id: string }
  | { ask: 'examples'; id: string; operation: string };

type Answer = {
  answer: string;
  grant?: Grant;
  retry?: boolean;
  warnings?: DescriptionWarning[];
  error?: string;
};

/**
 * Serves a LocalScheduler on a channel of this name (the runner's side), and the operations'
 * response example warnings (worked out where the embedded mock compiles the same schemas);
 * close() ends it.
 */
export function serveSchedulerChannel(
  scheduler: LocalScheduler,
  name: string,
  examples: (operationId: string) => DescriptionWarning[],
): () => void {
  const channel = new BroadcastChannel(name);
  const reply = (a: Answer) => channel.postMessage(a);
  channel.onmessage = (event) => {
    const m = (event as { data: Ask | Answer }).data;
    if (!('ask' in m)) return; // another side's answer
    if (m.ask === 'release') scheduler.release(m.key, m.token, m.outcome);
    else if (m.ask === 'retry') reply({ answer: m.id, retry: scheduler.mayRetry() });
    else if (m.ask === 'examples') reply(examplesAnswer(m.id, () => examples(m.operation)));
    else
      void scheduler
        .acquire(m.key, m.limits, m.route)
        .then((grant) => reply({ answer: m.id, grant }));
  };
  return () => channel.close();
}

/** The warnings, or the error working them out threw (a schema Ajv cannot compile), to rethrow. */
function examplesAnswer(id: string, work: () => DescriptionWarning[]): Answer {
  try {
    return { answer: id, warnings: work() };
  } catch (err) {
    return { answer: id, error: err instanceof Error ? err.message : String(err) };
  }
}

let instances = 0;

/** The workers' side: every worker's channel sees every answer and keeps those it asked for. */
export class ChannelScheduler implements Scheduler {
  private channel: BroadcastChannel;
  private pending = new Map<string, (a: Answer) => void>();
  private prefix = `${threadId}.${++instances}.`;
  private seq = 0;

  constructor(name: string) {
    this.channel = new BroadcastChannel(name);
    // Referenced only while an answer is awaited: an idle channel keeps no thread alive.
    this.channel.unref();
    this.channel.onmessage = (event) => {
      const m = (event as { data: Ask | Answer }).data;
      if (!('answer' in m)) return; // another worker's question
      const settle = this.pending.get(m.answer);
      if (!settle) return;
      this.pending.delete(m.answer);
      if (this.pending.size === 0) this.channel.unref();
      settle(m);
    };
  }

  private ask(question: Ask & { id: string }): Promise<Answer> {
    return new Promise((resolve) => {
      if (this.pending.size === 0) this.channel.ref();
      this.pending.set(question.id, resolve);
      this.channel.postMessage(question);
    });
  }

  async acquire(key: string, limits: RateLimit[], route?: string): Promise<Grant> {
    const id = this.prefix + ++this.seq;
    const a = await this.ask({ ask: 'acquire', id, key, limits, route });
    return a.grant!;
  }

  release(key: string, token: number, outcome?: Outcome): void {
    this.channel.postMessage({ ask: 'release', key, token, ...(outcome ? { outcome } : {}) });
  }

  /** The operation's response example warnings, as the runner works them out. */
  async exampleWarnings(operation: string): Promise<DescriptionWarning[]> {
    const a = await this.ask({ ask: 'examples', id: this.prefix + ++this.seq, operation });
    if (a.error !== undefined) throw new Error(a.error);
    return a.warnings ?? [];
  }

  async mayRetry(): Promise<boolean> {
    const a = await this.ask({ ask: 'retry', id: this.prefix + ++this.seq });
    return a.retry === true;
  }
}
