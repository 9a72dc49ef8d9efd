/**
 * A vitest reporter, run in the runner's process, that collects the CheckResult each contract test
 * attached to its meta, plus errors outside any check (a file that failed to load, a test that
 * threw something other than a ContractViolation).
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { redactorFor } from 'dataapi/runtime/shared';
import { CHECKS, type CheckResult, type FuzzStats } from './results.ts';

export class Collector implements Reporter {
  private results: CheckResult[] = [];
  readonly errors: string[] = [];
  /** What fuzzing did, per operation (--fuzz). */
  readonly fuzz: Record<string, FuzzStats> = {};

  constructor(private secrets: string[]) {}

  onTestCaseResult(test: TestCase): void {
    const fuzz = test.meta().dataapiFuzz;
    if (fuzz) this.fuzz[fuzz.operation] = fuzz.stats;
    const meta = test.meta().dataapi;
    if (meta) {
      this.results.push(meta);
      return;
    }
    const r = test.result();
    if (r.state === 'failed')
      for (const e of r.errors ?? [])
        this.errors.push(this.clean(`${test.fullName}: ${e.message ?? String(e)}`));
  }

  onTestModuleEnd(module: TestModule): void {
    for (const e of module.errors())
      this.errors.push(this.clean(`${module.moduleId}: ${e.message ?? String(e)}`));
  }

  onTestRunEnd(
    _modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<{ message?: string }>,
  ): void {
    for (const e of unhandled) this.errors.push(this.clean(`unhandled: ${e.message ?? String(e)}`));
  }

  /** Results in a stable order: operation, variant (main first), then CHECKS order. */
  sorted(): CheckResult[] {
    const order = (r: CheckResult) => CHECKS.indexOf(r.check);
    return [...this.results].sort(
      (a, b) =>
        a.operation.localeCompare(b.operation, 'en') ||
        (a.variant === b.variant ? 0 : a.variant === 'main' ? -1 : 1) ||
        order(a) - order(b),
    );
  }

  private clean(text: string): string {
    // Foreign text (vitest's and Node's messages): the key as a value, never our names.
    return redactorFor(this.secrets).text(text);
  }
}
