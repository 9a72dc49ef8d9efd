/**
 * Progress while the suite runs (the `console` reporter's live part): one compact line per
 * operation file as it finishes, from the CheckResults the tests attached. It prints only
 * operation ids and counts, never vitest's failure messages (their details come after the run in
 * the matrix, from the redacted results), so nothing a target sent reaches the terminal here.
 */
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';
import type { CheckResult } from '../results.ts';

export class ProgressReporter implements Reporter {
  private done = 0;
  private total = 0;

  private vitest: Vitest | undefined;

  constructor(private out: NodeJS.WritableStream) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    // vitest announces every file and shards afterwards: count the files this shard runs, with
    // the same sequencer vitest will use.
    const shard = this.vitest?.config.shard;
    let specs = [...specifications];
    if (shard && this.vitest) {
      const Sequencer = this.vitest.config.sequence.sequencer;
      specs = await new Sequencer(this.vitest).shard(specs);
    }
    this.total = specs.length;
    this.done = 0;
    this.out.write(
      `dataapi contract: running ${this.total} operation file${this.total === 1 ? '' : 's'}` +
        (shard ? ` (shard ${shard.index}/${shard.count} of ${specifications.length})` : '') +
        '\n',
    );
  }

  onTestModuleEnd(module: TestModule): void {
    this.done++;
    const results: CheckResult[] = [];
    let broken = 0;
    for (const test of module.children.allTests()) {
      const meta = test.meta().dataapi;
      if (meta) results.push(meta);
      else if (test.result().state === 'failed') broken++;
    }
    const ops = [...new Set(results.map((r) => r.operation))];
    const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
    const failed = count('failed') + broken + (module.errors().length ? 1 : 0);
    const name = ops.join(', ') || module.moduleId.split(/[\\/]/).pop() || module.moduleId;
    const ms = module.diagnostic().duration;
    this.out.write(
      `  ${failed ? '✗' : '✓'} [${this.done}/${this.total}] ${name}: ${count('passed')} passed, ${failed} failed, ${count('skipped')} skipped (${(ms / 1000).toFixed(1)} s)\n`,
    );
  }
}
