// Worker thread entry for the TypeScript-side work of a run (../emit/typescript-side.mjs), started
// with the run. Plain JavaScript: no loader is registered in this thread.
//
// A one-file JSON description is read, parsed and rendered here from the start, while the main
// thread loads and validates the same file: the main thread then asks for types.ts by the hash of
// the text it read, and gets this result when its document is that text as JSON.parse reads it
// (it sends its document otherwise). Every document here is this thread's own copy.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { parsed, renderTypes, syntaxError, typeErrors } from '../emit/typescript-side.mjs';
import { treeTypeErrors } from '../emit/typecheck-tree.mjs';
import { keepCompilerCode } from './compiler-cache.mjs';

const sha = (text) => createHash('sha256').update(text).digest('hex');
/** @type {{ hash: string; types: Promise<string> } | undefined} */
let ahead;

const jobs = {
  /** @param {string} file */
  async prepare(file) {
    const text = await readFile(file, 'utf8').catch(() => '');
    // A `$ref` into another file: the loader bundles, and only its document will do.
    if (!/^\s*\{/.test(text) || /"\$ref"\s*:\s*"(?!#)/.test(text)) return null;
    let document;
    try {
      document = JSON.parse(text);
    } catch {
      return null; // the loader reports it
    }
    const types = renderTypes(document, { owned: true, source: text });
    types.catch(() => undefined); // a failure is the answer to the main thread's ask
    ahead = { hash: sha(text), types };
    return null;
  },
  /** @param {{ hash?: string; document?: unknown }} payload */
  async types({ hash, document }) {
    if (hash !== undefined && ahead?.hash === hash) return ahead.types;
    ahead = undefined;
    return document === undefined ? null : renderTypes(document, { owned: true });
  },
  /** @param {{ files: { path: string; content: string }[]; keep: boolean }} payload */
  async check({ files, keep }) {
    // With `keep`, the tree's type-check that follows checks types.ts too, in its own program:
    // a program of its own for types.ts here would parse and bind its 150,000 lines once more.
    return files
      .map((f) => syntaxError(f, keep) ?? (keep ? undefined : typeErrors(f)))
      .filter(Boolean);
  },
  /** @param {{ files: { path: string; content: string }[]; outDir: string; projectRoot: string }} payload */
  async typecheck({ files, outDir, projectRoot }) {
    try {
      return treeTypeErrors(files, { outDir, projectRoot }, parsed) ?? null;
    } finally {
      parsed.clear();
    }
  },
};

parentPort.on('message', async ({ id, kind, payload }) => {
  let reply;
  try {
    reply = { id, result: await jobs[kind](payload) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  // The compiler's code, with what this job compiled of it, for the next run: before the answer,
  // since the main thread ends this thread once it has the last one (once per machine and depth).
  if (kind === 'check' || kind === 'types') keepCompilerCode('parse');
  else if (kind === 'typecheck') keepCompilerCode('check');
  parentPort.postMessage(reply);
});
