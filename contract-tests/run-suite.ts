/**
 * The generated suite run through vitest's Node API, with the target provided to the workers and
 * a collector among the reporters (the contract runner's last step but the reports).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toFileStem } from 'dataapi/model';
import type { Collector } from './collector.ts';
import type { ContractConfig } from './config.ts';
import { modelFromJson, suiteResolveOnce } from './model-plugin.ts';
import { vitestReporters, VITEST_FILES } from './reports/index.ts';

/** What of a run the suite needs. */
export interface SuiteRun {
  o: { shard?: string; reporters?: string[] };
  root: string;
  generatedDir: string;
  only: string[] | undefined;
  reportDir: string;
  out: NodeJS.WritableStream;
}

/** The suite's vitest config beside this module: vitest.config.ts in the sources, .js when built. */
const VITEST_CONFIG = fileURLToPath(
  new URL(`./vitest.config${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** Runs the generated suite through vitest's Node API; the collector receives the results. */
export async function runSuite(
  run: SuiteRun,
  config: ContractConfig,
  collector: Collector,
  /** A file's name stem -> its operation id (the order told to a single worker). */
  stems: ReadonlyMap<string, string>,
): Promise<void> {
  const { o, root, only, reportDir, out } = run;
  // vitest/node (and the sequencer built on it) only when a suite runs: a heavy module graph.
  const [{ startVitest }, { operationOrder }] = await Promise.all([
    import('vitest/node'),
    import('./run-order.ts'),
  ]);
  const filters = (only ?? []).map((id) => `/${toFileStem(id, 'operation')}.test.ts`);
  await keepingExitCode(async () => {
    const vitest = await startVitest(
      'test',
      filters,
      {
        root,
        config: VITEST_CONFIG,
        ...suiteFiles(root, run.generatedDir),
        server: { deps: suiteDeps(root, run.generatedDir) },
        watch: false,
        run: true,
        sequence: { sequencer: operationOrder(config, stems) },
        passWithNoTests: false,
        ...(o.shard ? { shard: o.shard } : {}),
        reporters: [...vitestReporters(o.reporters, out), collector] as never,
        outputFile: {
          junit: path.join(reportDir, VITEST_FILES.junit),
          json: path.join(reportDir, VITEST_FILES.json),
        },
      },
      {
        plugins: [modelFromJson(run.generatedDir), suiteResolveOnce(run.generatedDir)],
        test: { provide: { dataapiContract: config } },
      },
    );
    await vitest.close();
  });
}

/**
 * vitest sets process.exitCode when a test fails; the run decides its own exit code (a failed
 * contract test is a report, not the process failing here), so the caller's is kept.
 */
async function keepingExitCode(body: () => Promise<void>): Promise<void> {
  const saved = process.exitCode;
  await body();
  process.exitCode = saved;
}

/**
 * The suite's test files for vitest when they are not the project's generated/ (a `--spec` cache
 * folder under node_modules): included explicitly, and transformed rather than loaded as a
 * dependency.
 */
function suiteFiles(root: string, generatedDir: string): Record<string, unknown> {
  if (generatedDir === path.join(root, 'generated')) return {};
  const rel = path.relative(root, generatedDir).split(path.sep).join('/');
  const outside = rel.startsWith('..');
  return {
    ...(outside ? { dir: generatedDir } : {}),
    include: [`${outside ? '' : `${rel}/`}contract-tests/**/*.test.ts`],
    exclude: [],
  };
}

/** The toolkit's built modules (dist/), wherever this module runs from (dist/ or the sources). */
const TOOLKIT_DIST = path.join(
  fileURLToPath(new URL(import.meta.url.endsWith('.js') ? '..' : '../dist', import.meta.url)),
  path.sep,
);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What vitest transforms and what it imports natively. The toolkit's own dist/ (the suite's
 * `dataapi/contract`, reached through a symbolic link or the project itself, so not under a
 * node_modules/ path vitest externalises by itself) is plain JavaScript: loaded by Node in each
 * worker, instead of transformed by Vite in the runner and evaluated through vitest's module
 * runner (a tiny description's run: 5.1 s of CPU -> 3.4 s). The suite's own files stay transformed (a cache
 * folder under node_modules/ would otherwise be externalised).
 */
export function suiteDeps(
  root: string,
  generatedDir: string,
): { external: RegExp[]; inline?: RegExp[] } {
  const external = [new RegExp(`^${escapeRegExp(TOOLKIT_DIST)}`)];
  if (generatedDir === path.join(root, 'generated')) return { external };
  return { external, inline: [/contract-tests\/.*\.test\.ts$/, /generated\/(model|mock)/] };
}
