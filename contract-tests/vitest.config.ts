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
    // Files already run in parallel workers; tests within a file share their requests in order.
    sequence: { concurrent: false },
    retry: 0,
    // The work is waiting on the network and on rate-limit windows, not CPU: run many files at once.
    pool: 'threads',
    // Every file imports the same model and toolkit: sharing them across the files of a worker
    // (instead of re-evaluating the model and recompiling its schemas per file) makes a large
    // description's run several times faster (Box: 296 files). The files keep no state of their own.
    isolate: false,
    maxWorkers: 8,
  },
});
