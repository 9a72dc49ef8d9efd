/**
 * The order of the suite's files, told to the worker that runs them. Vitest hands a single worker
 * every file at once but collects each just before running it, so a worker cannot see which
 * operations come next; this sequencer runs the files in name order and provides that order
 * (`ContractConfig.order`), which lets the worker start the next operations' requests while it
 * checks the current one (prefetch.ts). With several workers (VITEST_MAX_WORKERS) files go to
 * whichever is free, no worker knows its own next files, and no order is given.
 */
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';
import { CONFIG_KEY, type ContractConfig } from './config.ts';

/** A vitest sequencer class for this run: `stems` maps a file's name stem to its operation id. */
export function operationOrder(
  config: ContractConfig,
  stems: ReadonlyMap<string, string>,
): new (ctx: Vitest) => BaseSequencer {
  return class OperationOrder extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : 1));
      const project = sorted[0]?.project;
      if (project && this.ctx.config.maxWorkers === 1) {
        const order = sorted.flatMap((f) => {
          const id = stems.get(stemOf(f.moduleId));
          return id === undefined ? [] : [id];
        });
        project.provide(CONFIG_KEY, { ...config, order });
      }
      return sorted;
    }
  };
}

/** `a/b/get-user.test.ts` -> `get-user`. */
function stemOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  return name.replace(/\.test\.[cm]?[jt]s$/, '');
}
