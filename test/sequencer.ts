/**
 * The order in which the test files start: the longest first, so that the workers do not end
 * the run waiting on one slow file started last. Vitest's own order is longest first only when
 * its results cache (node_modules/.vite) holds an earlier run's durations; on a fresh checkout (CI)
 * it starts the larger files first, and some of the slowest files are among the shortest
 * (spec-proof-box.test.ts is 14 lines and runs over a minute). There the durations below, seconds
 * measured on the 2-core machine (a whole `npm test` of 2026-11-27, 00:30 UTC, wall time with four files at once),
 * stand in; a file measured by an earlier run goes by that.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const MEASURED: Record<string, number> = {
  'test/pack/installed.test.ts': 210,
  'test/lifecycle/pack-version.test.ts': 136,
  'test/generator/real-descriptions.test.ts': 118,
  'test/pack/consumer.test.ts': 111,
  'test/pack/pack.test.ts': 104,
  'test/contract/spec-proof-box.test.ts': 103,
  'test/contract/fuzz-mocks.test.ts': 85,
  'test/contract/runner.test.ts': 77,
  'test/generator/load-errors.test.ts': 74,
  'test/generator/emit.test.ts': 72,
  'test/generator/swagger2.test.ts': 70,
  'test/cli/config.test.ts': 60,
  'test/contract/fuzz.test.ts': 59,
  'test/contract/robustness.test.ts': 55,
  'test/serve/redis.test.ts': 42,
  'test/contract/violations.test.ts': 40,
  'test/serve/examples.test.ts': 37,
  'test/contract/save-failures.test.ts': 34,
  'test/generator/typecheck-tree.test.ts': 30,
  'test/contract/spec-suites.test.ts': 28,
  'test/cli/cli.test.ts': 28,
  'test/lifecycle/wire.test.ts': 27,
  'test/scaffold/integration.test.ts': 27,
  'test/sampler/fixtures.test.ts': 26,
  'test/architecture/imports.test.ts': 23,
  'test/contract/spec-proof-adyen.test.ts': 23,
  'test/contract/spec-classes.test.ts': 23,
  'test/contract/spec-proof-twilio.test.ts': 22,
  'test/contract/recheck.test.ts': 22,
  'test/generator/format-long-strings.test.ts': 22,
  'test/contract/links.test.ts': 19,
  'test/contract/spec-proof-service.test.ts': 19,
  'test/contract/path-separators.test.ts': 18,
  'test/readme/readme.test.ts': 17,
  'test/contract/fuzz-odd.test.ts': 17,
  // Reads the trees real-descriptions.test.ts makes (real-trees.ts): started late, it finds them
  // made instead of waiting on them with a worker.
  'test/generator/third-party.test.ts': 1,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = await super.sort(files);
    const root = this.ctx.config.root;
    /** Expected milliseconds: vitest's own record of an earlier run, else the table, else 0. */
    const expected = (spec: TestSpecification): number => {
      const rel = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${rel}`);
      return cached?.duration ?? (MEASURED[rel] ?? 0) * 1000;
    };
    // A stable sort: files with nothing known keep vitest's order among themselves.
    return order
      .map((spec, index) => ({ spec, index, ms: expected(spec) }))
      .sort((a, b) => b.ms - a.ms || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
