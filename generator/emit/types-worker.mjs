// Worker thread entry for the TypeScript-side work of a run: rendering generated/types.ts with
// openapi-typescript and parsing every emitted .ts file with the TypeScript compiler. Loading those
// two is the longest single step of a cold run; started first, it overlaps the spec's validation
// on the main thread, and the compiler is loaded once. Plain JavaScript because a worker starts
// without the parent's loaders: it registers tsx itself.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const [{ renderTypes }, { syntaxError }, ts] = await Promise.all([
  import('./types.ts'),
  import('./syntax.ts'),
  import('typescript'),
]);
parentPort.on('message', async ({ id, kind, payload }) => {
  try {
    if (kind === 'types') parentPort.postMessage({ id, result: await renderTypes(payload) });
    else {
      const errors = payload.map((file) => syntaxError(ts.default, file)).filter(Boolean);
      parentPort.postMessage({ id, result: errors });
    }
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
