/**
 * What makes a generate run fast, behind one name. None of it changes a byte of the output; it only
 * decides what need not be done again, and where and when the work runs:
 *
 * - the up-to-date stamp (stamp.ts): a re-run whose inputs and output are as the last run left
 *   them does nothing at all;
 * - the format manifest (manifest.ts): a file whose unformatted text is unchanged takes its
 *   formatted text from the output folder, without prettier;
 * - the TypeScript worker (worker.ts): openapi-typescript and the compiler's syntax check on the
 *   other core, started with the run;
 * - the overlap: a small description, or any run that type-checks its tree (the worker stays for
 *   it), formats its templates' output while the worker renders the types; a large one without
 *   the type-check lets the worker finish and go first, so the two memory peaks do not add up.
 */
import type { RenderedFile } from '../emit/render.ts';
import { readTree } from '../emit/write.ts';
import { ManifestCache } from './manifest.ts';
import { freshStamp, writeStamp, type StampContext } from './stamp.ts';
import type { TypeScriptWorker } from './worker.ts';

export { MANIFEST } from './manifest.ts';
export type { ManifestCache } from './manifest.ts';
export type { StampContext } from './stamp.ts';
export type { TypeScriptWorker } from './worker.ts';

/** Up to this size, formatting overlaps the worker (see `overlap`). */
const OVERLAP_MAX_OPERATIONS = 500;

export interface UpToDate {
  operations: number;
  previews: number;
  /** The output folder's files, as the last run wrote them. */
  files: RenderedFile[];
}

/** The output of the last run into `out`, when its inputs and the output are as it left them. */
export async function upToDate(out: string, ctx: StampContext): Promise<UpToDate | undefined> {
  const fresh = await freshStamp(out, ctx);
  if (!fresh) return undefined;
  const tree = await readTree(out);
  const files = [...tree].map(([p, content]) => ({ path: p, content }));
  return { operations: fresh.operations, previews: fresh.previews, files };
}

export interface Speedups {
  /** openapi-typescript and the compiler's syntax check, in the worker started with the run. */
  readonly typescript: TypeScriptWorker;
  /** The output folder's manifest as a format cache (`existing`: the folder's files now). */
  formatCache(existing: Map<string, string>): ManifestCache;
  /**
   * Formats the templates' output and finishes the types (rendered and checked in the worker, which
   * then ends) in the order that suits a description with this many operations.
   */
  overlap<T, U>(
    operations: number,
    formatTemplates: () => Promise<T>,
    finishTypes: () => Promise<U>,
    /** The worker has more to do after the types (the tree's type-check). */
    workerStays?: boolean,
  ): Promise<[T, U]>;
  /** Records the run, so that a re-run with the same inputs and output is skipped. */
  stamp(
    inputs: string[],
    counts: { operations: number; previews: number },
    files: RenderedFile[],
  ): Promise<void>;
  /** Ends the worker; the run calls it however it ends. */
  close(): void;
}

const notStarted = () => Promise.reject(new Error('no TypeScript worker in this run'));
const noTypeScript: TypeScriptWorker = {
  render: notStarted,
  check: notStarted,
  checkTypes: notStarted,
  typecheck: notStarted,
  close: () => undefined,
};

/**
 * Starts the worker at once: it loads its libraries (and renders a one-file JSON description's
 * types) while the main thread loads the spec.
 */
export async function startSpeedups(
  run: { spec: string; out: string; typescriptWorker?: boolean; suiteOnly?: boolean },
  ctx: StampContext,
): Promise<Speedups> {
  const { out } = run;
  // A suite (GenerateOptions.suiteOnly) asks nothing of TypeScript: no worker is started.
  const typescript = run.suiteOnly
    ? noTypeScript
    : (await import('./worker.ts')).startTypeScriptWorker(run.spec, run.typescriptWorker !== false);
  let cache: ManifestCache | undefined;
  return {
    typescript,
    formatCache: (existing) => (cache = new ManifestCache(existing)),
    overlap: async (operations, formatTemplates, finishTypes, workerStays = false) => {
      // When the worker stays for the tree's type-check, its heap stays too: waiting for it saves
      // no memory, only time.
      if (operations <= OVERLAP_MAX_OPERATIONS || workerStays) {
        const templates = await formatTemplates();
        return [templates, await finishTypes()];
      }
      const types = await finishTypes();
      return [await formatTemplates(), types];
    },
    stamp: (inputs, counts, files) =>
      writeStamp(out, ctx, inputs, counts, files, (file) => cache?.sha(file)),
    close: () => typescript.close(),
  };
}
