/**
 * The TypeScript-side work of a run (openapi-typescript, the compiler's syntax check:
 * ../emit/typescript-side.mjs) in a worker thread started at the beginning of the run, so that
 * loading them overlaps the spec's validation on the main thread (machines here have two cores or
 * more). Falls back to the main thread when a worker cannot start.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LoadedSpec } from '../load-text.ts';
import type { RenderedFile } from '../emit/render.ts';

export interface TypeScriptWorker {
  /** generated/types.ts's text for the loaded description (openapi-typescript). */
  render(spec: LoadedSpec): Promise<string>;
  /**
   * The parse errors of emitted TypeScript files, and types.ts's type errors (empty when none).
   * `keep`: the parse trees are kept for the tree's type-check, which is asked for next and
   * checks types.ts's types itself (they are not checked here then).
   */
  check(files: RenderedFile[], keep?: boolean): Promise<string[]>;
  /**
   * The whole tree type-checked in memory at the paths it is about to be written to: the first
   * errors as one message, or undefined (../emit/typecheck-tree.mjs).
   */
  typecheck(
    files: RenderedFile[],
    where: { outDir: string; projectRoot: string },
  ): Promise<string | undefined>;
  /** Ends the worker (its heap goes with it); later calls fail. */
  close(): void;
}

type Reply = { id: number; result?: unknown; error?: string };

/**
 * `specFile`: the description, which the worker starts on at once when it is one JSON file.
 * `inWorker` false: the calling thread does the work (GenerateOptions.typescriptWorker).
 */
export function startTypeScriptWorker(specFile: string, inWorker = true): TypeScriptWorker {
  if (!inWorker) return inProcess();
  let worker: Worker;
  try {
    // Beside this module, in the sources and in dist/ alike (the build copies .mjs files).
    worker = new Worker(new URL('./worker.mjs', import.meta.url));
  } catch {
    return inProcess();
  }
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let failure: Error | undefined;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.result);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the types worker stopped (exit code ${code})`)));
  let next = 0;
  const ask = <T>(kind: string, payload: unknown) =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, kind, payload });
    });
  ask('prepare', path.resolve(specFile)).catch(() => undefined);
  return {
    render: async (spec) => {
      if (spec.jsonText !== undefined) {
        const hash = createHash('sha256').update(spec.jsonText).digest('hex');
        const ahead = await ask<string | null>('types', { hash });
        if (ahead !== null) return ahead;
      }
      return ask<string>('types', { document: spec.document });
    },
    check: (files, keep = false) =>
      ask<string[]>('check', {
        files: files.map((f) => ({ path: f.path, content: f.content })),
        keep,
      }),
    typecheck: async (files, where) =>
      (await ask<string | null>('typecheck', {
        files: files.map((f) => ({ path: f.path, content: f.content })),
        ...where,
      })) ?? undefined,
    close: () => void worker.terminate(),
  };
}

function inProcess(): TypeScriptWorker {
  const side = import('../emit/typescript-side.mjs');
  return {
    render: async (spec) => (await side).renderTypes(spec.document),
    check: async (files, keep = false) => {
      const { syntaxError, typeErrors } = await side;
      return files
        .map((f) => syntaxError(f, keep) ?? (keep ? undefined : typeErrors(f)))
        .filter((e): e is string => !!e);
    },
    typecheck: async (files, where) => {
      const { parsed } = await side;
      try {
        return (await import('../emit/typecheck-tree.mjs')).treeTypeErrors(files, where, parsed);
      } finally {
        parsed.clear();
      }
    },
    // The parse trees kept for a type-check that did not run (the tree checked before).
    close: () => void side.then(({ parsed }) => parsed.clear()),
  };
}
