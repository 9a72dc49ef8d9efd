/**
 * The parent's side of typecheck-server.ts: one checker process per job slot, started on first
 * use, killed and started again when a check outlives its time bound or the process dies.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TypecheckAnswer } from './typecheck-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'typecheck-server.ts');

export interface TypecheckStep {
  answer?: TypecheckAnswer;
  timedOut: boolean;
  /** Why the checker process ended without answering (a crash, out of memory). */
  died?: string;
  ms: number;
}

export class Typechecker {
  private child: ChildProcess | undefined;

  constructor(private readonly running: Set<number>) {}

  private start(): ChildProcess {
    const child = fork(SERVER, [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    if (child.pid !== undefined) this.running.add(child.pid);
    child.once('exit', () => {
      if (child.pid !== undefined) this.running.delete(child.pid);
      if (this.child === child) this.child = undefined;
    });
    return child;
  }

  check(dir: string, deadline: number): Promise<TypecheckStep> {
    const child = (this.child ??= this.start());
    const started = performance.now();
    let stderr = '';
    const onErr = (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000));
    child.stderr?.on('data', onErr);
    return new Promise((resolve) => {
      const finish = (result: Omit<TypecheckStep, 'ms'>) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.stderr?.off('data', onErr);
        resolve({ ...result, ms: performance.now() - started });
      };
      const onMessage = (answer: TypecheckAnswer) => finish({ answer, timedOut: false });
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        finish({
          timedOut: false,
          died: `the type-checker ended (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').pop() ?? ''}`,
        });
      const timer = setTimeout(
        () => {
          this.stop();
          finish({ timedOut: true });
        },
        Math.max(0, deadline - Date.now()),
      );
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ dir });
    });
  }

  stop(): void {
    const child = this.child;
    this.child = undefined;
    child?.kill('SIGKILL');
  }
}
