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
  /**
   * generated/types.ts's content for the loaded description: `header`, then openapi-typescript's
   * text. The checks below read this types.ts.
   */
  render(spec: LoadedSpec, header: string): Promise<string>;
  /**
   * The parse errors of emitted TypeScript files (empty when none). `keep`: the files and their
   * parse trees are kept for the tree's type-check, which is asked for next.
   */
  check(files: RenderedFile[], keep?: boolean): Promise<string[]>;
  /**
   * types.ts's parse errors, and without `keep` its type errors (with `keep`, the tree's
   * type-check checks its types).
   */
  checkTypes(keep?: boolean): Promise<string[]>;
  /**
   * The whole tree (the kept files and types.ts) type-checked in memory at the paths it is about
   * to be written to (../emit/typecheck-tree.mjs), unless its key is the one `last` recorded.
   */
  typecheck(
    where: { outDir: string; projectRoot: string },
    last: { toolkit: string; recorded?: string },
  ): Promise<TreeCheck>;
  /** Ends the worker (its heap goes with it); later calls fail. */
  close(): void;
}

/** The tree's check: run (`checked`, with its first errors as one message) or not needed. */
export interface TreeCheck {
  how: 'checked' | 'cached';
  key: string;
  errors?: string;
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
    render: async (spec, header) => {
      if (spec.jsonText !== undefined) {
        const hash = createHash('sha256').update(spec.jsonText).digest('hex');
        const ahead = await ask<string | null>('types', { hash, header });
        if (ahead !== null) return ahead;
      }
      return ask<string>('types', { document: spec.document, header });
    },
    check: (files, keep = false) =>
      ask<string[]>('check', {
        files: files.map((f) => ({ path: f.path, content: f.content })),
        keep,
      }),
    checkTypes: (keep = false) => ask<string[]>('checkTypes', { keep }),
    typecheck: (where, last) => ask<TreeCheck>('typecheck', { ...where, ...last }),
    close: () => void worker.terminate(),
  };
}

function inProcess(): TypeScriptWorker {
  const side = import('../emit/typescript-side.mjs');
  let types: Promise<string> | undefined;
  let kept: RenderedFile[] = [];
  const syntaxErrors = async (files: RenderedFile[], keep: boolean) =>
    (await side).syntaxErrors(files, keep);
  const rendered = () => types ?? Promise.reject(new Error('types.ts was not rendered'));
  return {
    render: (spec, header) => {
      types = side.then(async (s) => header + (await s.renderTypes(spec.document)));
      return types;
    },
    check: (files, keep = false) => {
      if (keep) kept = files;
      return syntaxErrors(files, keep);
    },
    checkTypes: async (keep = false) =>
      syntaxErrors([{ path: 'types.ts', content: await rendered() }], keep),
    typecheck: async (where, last) => {
      const [{ parsed }, { checkTree }] = await Promise.all([
        side,
        import('../emit/typecheck-tree.mjs'),
      ]);
      const tree = kept;
      kept = [];
      const files = [...tree, { path: 'types.ts', content: await rendered() }];
      return checkTree(files, where, last, parsed);
    },
    // The parse trees kept for a type-check that was not asked for (a run that failed first).
    close: () => void side.then(({ parsed }) => parsed.clear()),
  };
}
