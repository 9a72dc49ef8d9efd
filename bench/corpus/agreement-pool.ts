/**
 * Runs descriptions through long-lived worker processes (agreement-worker.ts), `jobs` at a time,
 * each description under a time bound: one that passes it, or whose worker dies, is recorded as
 * such and its worker replaced, so a run never hangs on one description. A worker is replaced after
 * `recycleAfter` descriptions too, so that memory a large description left behind is given back.
 */
import type { ChildProcess, Serializable } from 'node:child_process';
import type { AgreementRecord } from './agreement-records.ts';

export interface PoolOptions<J> {
  ids: string[];
  jobs: number;
  timeoutMs: number;
  /** A fresh worker: its own process group (detached), an IPC channel, `{ready: true}` once listening. */
  spawnWorker: () => ChildProcess;
  job: (id: string) => J;
  onRecord: (record: AgreementRecord) => Promise<void>;
  recycleAfter?: number;
}

/** Worker process groups alive now (killed by the runner when it is stopped). */
export const workers = new Set<ChildProcess>();

export function killWorker(child: ChildProcess | undefined): void {
  if (!child) return;
  workers.delete(child);
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

type Answer =
  { kind: 'record'; record: AgreementRecord } | { kind: 'timeout' } | { kind: 'exit'; why: string };

/** The worker's next answer to `accept`, its exit, or the time bound: whichever comes first. */
function answer(child: ChildProcess, ms: number, accept: (m: unknown) => boolean): Promise<Answer> {
  return new Promise((resolve) => {
    const done = (a: Answer) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(a);
    };
    const onMessage = (m: unknown) => {
      if (accept(m)) done({ kind: 'record', record: m as AgreementRecord });
    };
    const onExit = (code: number | null, signal: string | null) =>
      done({ kind: 'exit', why: `the worker exited (${signal ?? `code ${code}`})` });
    const timer = setTimeout(() => done({ kind: 'timeout' }), ms);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function runPool<J>(o: PoolOptions<J>): Promise<void> {
  let next = 0;
  const recycle = o.recycleAfter ?? 100;
  const slot = async () => {
    let child: ChildProcess | undefined;
    let served = 0;
    try {
      for (let id = o.ids[next++]; id !== undefined; id = o.ids[next++]) {
        if (child && served >= recycle) {
          killWorker(child);
          child = undefined;
        }
        if (!child) {
          child = o.spawnWorker();
          workers.add(child);
          served = 0;
          const ready = await answer(
            child,
            o.timeoutMs,
            (m) => (m as { ready?: boolean })?.ready === true,
          );
          if (ready.kind !== 'record')
            throw new Error(
              `an agreement worker did not start: ${ready.kind === 'exit' ? ready.why : 'no answer'}`,
            );
        }
        const started = Date.now();
        const at = new Date(started).toISOString();
        child.send(o.job(id) as Serializable);
        const a = await answer(child, o.timeoutMs, (m) => (m as { id?: string })?.id === id);
        served++;
        if (a.kind === 'record') {
          await o.onRecord(a.record);
          continue;
        }
        killWorker(child);
        child = undefined;
        await o.onRecord({
          id,
          outcome: a.kind === 'timeout' ? 'timeout' : 'crashed',
          ms: Date.now() - started,
          at,
          findings: [],
          message: a.kind === 'timeout' ? `no answer within ${o.timeoutMs / 1000} s` : a.why,
        });
      }
    } finally {
      killWorker(child);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs, o.ids.length) }, slot));
}
