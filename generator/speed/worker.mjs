// Worker thread entry for the TypeScript-side work of a run (../emit/typescript-side.mjs), started
// first so that loading openapi-typescript and the compiler overlaps the spec's validation on the
// main thread. Plain JavaScript: no loader is registered in this thread.
import { parentPort } from 'node:worker_threads';
import { renderTypes, syntaxError } from '../emit/typescript-side.mjs';

parentPort.on('message', async ({ id, kind, payload }) => {
  try {
    if (kind === 'types') parentPort.postMessage({ id, result: await renderTypes(payload) });
    else parentPort.postMessage({ id, result: payload.map(syntaxError).filter(Boolean) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
