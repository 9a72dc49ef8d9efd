/**
 * The order in which the test files start: the longest first, so that three workers do not end
 * the run waiting on one slow file started last. Vitest's own order is longest first only when
 * its results cache (node_modules/.vite) holds an earlier run's durations; on a fresh checkout (CI)
 * it starts the larger files first, and some of the slowest files are among the shortest
 * (spec-proof-box.test.ts is 14 lines and runs over a minute). There the durations below, seconds
 * measured on the 2-core machine, stand in; a file measured by an earlier run goes by that.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const MEASURED: Record<string, number> = {
  'test/pack/installed.test.ts': 124,
  'test/generator/real-descriptions.test.ts': 121,
  'test/lifecycle/pack-version.test.ts': 100,
  'test/contract/fuzz-mocks.test.ts': 100,
  'test/generator/emit.test.ts': 95,
  'test/pack/consumer.test.ts': 94,
  'test/contract/robustness.test.ts': 82,
  'test/contract/spec-proof-box.test.ts': 79,
  'test/contract/violations.test.ts': 64,
  'test/contract/fuzz.test.ts': 57,
  'test/pack/pack.test.ts': 56,
  'test/contract/spec-suites.test.ts': 56,
  'test/contract/spec-proof-adyen.test.ts': 50,
  'test/sampler/fixtures.test.ts': 45,
  'test/contract/runner.test.ts': 43,
  'test/diff/matrix.test.ts': 41,
  'test/contract/spec-proof-twilio.test.ts': 36,
  'test/contract/save-failures.test.ts': 30,
  'test/cli/config.test.ts': 30,
  'test/serve/examples.test.ts': 28,
  'test/lifecycle/wire.test.ts': 27,
  'test/contract/spec-proof-service.test.ts': 27,
  'test/contract/spec-classes.test.ts': 25,
  'test/cli/cli.test.ts': 23,
  'test/serve/redis.test.ts': 22,
  'test/describe/any-description.test.ts': 21,
  'test/generator/hostile.test.ts': 21,
  'test/contract/links.test.ts': 21,
  'test/scaffold/integration.test.ts': 20,
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
