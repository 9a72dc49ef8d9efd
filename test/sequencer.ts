/**
 * The order in which the test files start: the longest first, so that the workers do not end
 * the run waiting on one slow file started last. Vitest's own order is longest first only when
 * its results cache (node_modules/.vite) holds an earlier run's durations; on a fresh checkout (CI)
 * it starts the larger files first, and some of the slowest files are among the shortest
 * (spec-proof-box.test.ts is 14 lines and runs over a minute). There the durations below, seconds
 * measured on the 2-core machine (a whole CI run of 2026-11-26, wall time with three files at once),
 * stand in; a file measured by an earlier run goes by that.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const MEASURED: Record<string, number> = {
  'test/contract/spec-proof-box.test.ts': 223,
  'test/pack/installed.test.ts': 145,
  'test/lifecycle/pack-version.test.ts': 125,
  'test/contract/spec-proof-adyen.test.ts': 118,
  'test/contract/fuzz-mocks.test.ts': 110,
  'test/generator/real-descriptions.test.ts': 100,
  'test/contract/robustness.test.ts': 76,
  'test/pack/pack.test.ts': 71,
  'test/contract/spec-proof-twilio.test.ts': 71,
  'test/contract/fuzz.test.ts': 69,
  'test/pack/consumer.test.ts': 66,
  'test/generator/emit.test.ts': 64,
  'test/contract/runner.test.ts': 59,
  'test/sampler/fixtures.test.ts': 49,
  'test/contract/violations.test.ts': 47,
  'test/describe/any-description.test.ts': 42,
  'test/serve/examples.test.ts': 39,
  'test/generator/typecheck-tree.test.ts': 37,
  'test/contract/spec-suites.test.ts': 35,
  'test/contract/fuzz-odd.test.ts': 33,
  'test/contract/spec-classes.test.ts': 32,
  'test/lifecycle/wire.test.ts': 31,
  'test/cli/config.test.ts': 30,
  'test/contract/recheck.test.ts': 30,
  'test/generator/swagger2.test.ts': 30,
  'test/contract/path-separators.test.ts': 29,
  'test/contract/save-failures.test.ts': 29,
  'test/contract/spec-proof-service.test.ts': 28,
  'test/cli/cli.test.ts': 28,
  'test/contract/links.test.ts': 26,
  'test/scaffold/scaffold.test.ts': 26,
  'test/scaffold/integration.test.ts': 25,
  'test/diff/matrix.test.ts': 25,
  'test/serve/redis.test.ts': 24,
  'test/generator/load-errors.test.ts': 22,
  'test/readme/readme.test.ts': 21,
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
