/**
 * The order in which the test files start: the longest first, so that the workers do not end
 * the run waiting on one slow file started last. Vitest's own order is longest first only when
 * its results cache (node_modules/.vite) holds an earlier run's durations; on a fresh checkout (CI)
 * it starts the larger files first, and some of the slowest files are among the shortest
 * (spec-proof-box.test.ts is 14 lines and runs over a minute). There the durations below, seconds
 * measured on the 2-core machine (a whole `npm test` of 2026-11-26, evening, wall time with four files at once),
 * stand in; a file measured by an earlier run goes by that.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const MEASURED: Record<string, number> = {
  'test/pack/installed.test.ts': 201,
  'test/lifecycle/pack-version.test.ts': 185,
  'test/generator/real-descriptions.test.ts': 151,
  'test/pack/pack.test.ts': 119,
  'test/pack/consumer.test.ts': 104,
  'test/contract/fuzz.test.ts': 91,
  'test/generator/emit.test.ts': 82,
  'test/contract/runner.test.ts': 75,
  'test/cli/config.test.ts': 72,
  'test/contract/fuzz-mocks.test.ts': 67,
  'test/contract/spec-proof-box.test.ts': 58,
  'test/contract/robustness.test.ts': 58,
  'test/generator/typecheck-tree.test.ts': 52,
  'test/cli/cli.test.ts': 48,
  'test/contract/violations.test.ts': 41,
  'test/contract/spec-proof-adyen.test.ts': 41,
  'test/diff/matrix.test.ts': 41,
  'test/sampler/fixtures.test.ts': 39,
  'test/serve/examples.test.ts': 38,
  'test/describe/any-description.test.ts': 36,
  'test/serve/redis.test.ts': 36,
  'test/generator/swagger2.test.ts': 36,
  'test/scaffold/integration.test.ts': 36,
  'test/contract/save-failures.test.ts': 35,
  'test/lifecycle/wire.test.ts': 34,
  'test/contract/spec-suites.test.ts': 33,
  'test/scaffold/scaffold.test.ts': 33,
  'test/generator/load-errors.test.ts': 31,
  'test/architecture/imports.test.ts': 30,
  'test/contract/spec-proof-twilio.test.ts': 29,
  'test/generator/typescript-worker.test.ts': 27,
  'test/contract/recheck.test.ts': 27,
  'test/contract/spec-classes.test.ts': 26,
  'test/contract/links.test.ts': 26,
  'test/readme/readme.test.ts': 22,
  'test/lifecycle/diff.test.ts': 22,
  'test/generator/types-layout.test.ts': 20,
  'test/contract/spec-proof-service.test.ts': 20,
  'test/lint/lint.test.ts': 20,
  'test/diff/equivalence.test.ts': 18,
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
