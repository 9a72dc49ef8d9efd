// Worker thread entry for the TypeScript-side work of a run (../emit/typescript-side.mjs), started
// with the run. Plain JavaScript: no loader is registered in this thread.
//
// A one-file JSON description is read, parsed and rendered here from the start, while the main
// thread loads and validates the same file: the main thread then asks for types.ts by the hash of
// the text it read, and gets this result when its document is that text as JSON.parse reads it
// (it sends its document otherwise). Every document here is this thread's own copy.
//
// Jobs run one after another in the order they were asked for. The main thread asks for the whole
// chain at once (types, the syntax checks, the tree's type-check): this thread goes from one to
// the next without waiting for the main thread, which is busy formatting meanwhile.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { parsed, renderTypes, syntaxErrors } from '../emit/typescript-side.mjs';
import { checkTree } from '../emit/typecheck-tree.mjs';
import { keepCompilerCode } from './compiler-cache.mjs';

const sha = (text) => createHash('sha256').update(text).digest('hex');
/** @type {{ hash: string; types: Promise<string> } | undefined} */
let ahead;
/** types.ts's content (header included), once asked for. @type {Promise<string> | undefined} */
let types;
/** The files of the last kept syntax check: the tree, but for types.ts. */
let kept = [];

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
  /** @param {{ hash?: string; document?: unknown; header: string }} payload */
  async types({ hash, document, header }) {
    let text;
    if (hash !== undefined && ahead?.hash === hash) text = ahead.types;
    else {
      ahead = undefined;
      if (document === undefined) return null;
      text = renderTypes(document, { owned: true });
    }
    types = text.then((t) => header + t);
    types.catch(() => undefined); // answered below; the later jobs fail with it
    return types;
  },
  /** @param {{ files: { path: string; content: string }[]; keep: boolean }} payload */
  async check({ files, keep }) {
    // With `keep`, the tree's type-check that follows checks types.ts's types too, in its own
    // program: a program of its own for types.ts here would parse and bind its 150,000 lines once
    // more (checkTypes leaves them to it).
    if (keep) kept = files;
    return syntaxErrors(files, keep);
  },
  /** @param {{ keep: boolean }} payload */
  async checkTypes({ keep }) {
    if (!types) throw new Error('types.ts was not rendered');
    return syntaxErrors([{ path: 'types.ts', content: await types }], keep);
  },
  /** @param {{ outDir: string; projectRoot: string; toolkit: string; recorded?: string }} payload */
  async typecheck({ outDir, projectRoot, toolkit, recorded }) {
    if (!types) throw new Error('types.ts was not rendered');
    const tree = kept;
    kept = [];
    const files = [...tree, { path: 'types.ts', content: await types }];
    return checkTree(files, { outDir, projectRoot }, { toolkit, recorded }, parsed);
  },
};

let queue = Promise.resolve();
parentPort.on('message', ({ id, kind, payload }) => {
  queue = queue.then(async () => {
    let reply;
    try {
      reply = { id, result: await jobs[kind](payload) };
    } catch (err) {
      reply = { id, error: err instanceof Error ? err.message : String(err) };
    }
    // The compiler's code, with what this job compiled of it, for the next run: before the
    // answer, since the main thread ends this thread once it has the last one (once per machine
    // and depth).
    if (kind === 'check' || kind === 'checkTypes' || kind === 'types') keepCompilerCode('parse');
    else if (kind === 'typecheck') keepCompilerCode('check');
    parentPort.postMessage(reply);
  });
});
