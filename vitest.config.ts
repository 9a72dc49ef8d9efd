import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

// The project's own tests. The generated contract tests (generated/contract-tests) need a target and
// are run by `dataapi contract`, not here.
// `dataapi/...` imports (generated code, the runtime's own) resolve to the sources, as tsconfig.json's
// customConditions make them for the compiler: a test sees a change to runtime/ without a build.
const conditions = ['dataapi-source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/.work/**', 'generated/**'],
    // Safety nets against a hung server, not performance limits: generous enough that a test on a
    // busy 2-core machine (a child process, tsc, a contract run paced at 5 requests per second per
    // operation) never reaches them.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // A worker runs file after file in one process, with the modules it loaded (the toolkit, vitest,
    // Ajv, Fastify) kept: loading them again for each of 170 files was about half of the CPU of the
    // smaller files. Per-file state lives in the test files and in setup.ts, which runs per file.
    isolate: false,
    // Many files wait on servers and child processes (tsc, npm, contract runs), so four at once on
    // a 2-core machine (vitest's default there is one) keep both cores busy.
    maxWorkers: 4,
    // The slowest files start first (see the file).
    sequence: { sequencer: LongestFirst },
    setupFiles: ['test/setup.ts'],
    // A temporary folder of the run's own (TMPDIR) and test/.work left as found: see the file.
    globalSetup: ['test/global-setup.ts'],
  },
});
