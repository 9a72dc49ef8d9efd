/**
 * Vitest config of the generated contract suite (generated/contract-tests/). `dataapi contract`
 * uses it and provides the target; run directly, the target comes from DATAAPI_BASE_URL.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['generated/contract-tests/**/*.test.ts'],
    // One file per operation; requests are paced by the scheduler, not by vitest's timeouts.
    testTimeout: 15 * 60_000,
    hookTimeout: 60_000,
    // Tests within a file share their operation's requests, in order.
    sequence: { concurrent: false },
    retry: 0,
    pool: 'threads',
    // Every file imports the same model and toolkit: sharing them across the files of a worker
    // (instead of re-evaluating the model and recompiling its schemas per file) makes a large
    // description's run several times faster (Box: 296 files). The files keep no state of their own.
    isolate: false,
    // One worker receives every file at once; told their order by the runner's sequencer
    // (run-order.ts), it overlaps the operations' paced requests itself (prefetch.ts), with one
    // copy of the model and its validators (eight workers held eight: GitHub's peaked at 2.2 GiB).
    maxWorkers: 1,
  },
});
