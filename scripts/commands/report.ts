/** `dataapi report merge`: the results of several runs (shards, proxies) as one set of reports. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import type { Command } from '../command.ts';
import { configuredSpec } from '../config/active.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { readGeneratedModel } from '../generated-model.ts';
import { OWN_REPORTERS } from '../../contract-tests/reports/index.ts';
import { MergeError } from '../../contract-tests/merge/inputs.ts';
import { runMerge } from '../../contract-tests/merge/run.ts';
import { RunError } from '../../contract-tests/run-error.ts';
import { SpecError } from '../../generator/load.ts';
import { REPORT_FLAGS } from '../flags/report.ts';
import { flagLines } from '../flags/usage.ts';

export const usage = `Usage: dataapi report merge DIR... [--report-dir DIR] [--reporter NAME,...]
                             [--spec FILE] [--dir DIR]

Merges the results of several runs into one set of reports: the shards of
\`dataapi contract --shard i/n\` on a CI matrix, or proxies behind one load balancer. Each DIR is
a run's report folder (its contract-results.json is read; a results file may be named instead).
A check several runs made is one check of the merged run: failed if it failed in any, passed if
it passed in one, else skipped; its requests are all kept. Counts, coverage and description
warnings are worked out again from the merged results (an operation two shards reached counts
once, the same warning at the same place once); requests and durations add up.

${flagLines(REPORT_FLAGS, { 'DIR...': 'report folders of `dataapi contract` or `dataapi proxy` runs of\none description (shards of one split, each at most once)' })}

Results of different descriptions are refused, as are a folder without results, results of an
unknown version and the same shard twice.
Exit codes: 0 every merged check passed, 1 a check failed (or a run had an error; under a run's
--strict, a warning), 2 bad input (a folder without results, different descriptions, flags).`;

function reportersOf(given: string[] | undefined): string[] | undefined {
  const names = (given ?? []).flatMap((r) =>
    r
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  const others = names.filter((n) => !(OWN_REPORTERS as readonly string[]).includes(n));
  if (others.length)
    throw new UsageError(
      `--reporter: a merge writes ${OWN_REPORTERS.join(', ')}; not ${others.map((n) => JSON.stringify(n)).join(', ')}\n\n${usage}`,
    );
  return names.length ? names : undefined;
}

/** The model coverage is measured against, and how messages name it. */
async function modelOf(spec: string | undefined, dir: string) {
  const from = spec ?? (existsSync(path.join(dir, 'model.json')) ? undefined : configuredSpec());
  if (from !== undefined) {
    const { specModel } = await import('../spec-model.ts');
    return { model: await specModel(from), modelName: `the description ${from}`, spec: from };
  }
  const model: ServiceModel = await readGeneratedModel(dir, 'generated model');
  return { model, modelName: `${path.join(dir, 'model.json')}`, spec: undefined };
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const [sub, ...rest] = argv;
      if (sub !== 'merge')
        throw new UsageError(
          `${sub === undefined ? 'a subcommand is needed' : `unknown subcommand ${JSON.stringify(sub)}`}: dataapi report merge DIR...\n\n${usage}`,
        );
      const { values, positionals } = parseFlags(rest, REPORT_FLAGS, usage, { max: Infinity });
      if (positionals.length === 0)
        throw new UsageError(`report merge needs the report folders to merge (DIR...)\n\n${usage}`);
      const reporters = reportersOf(values.reporter);
      try {
        const { model, modelName, spec } = await modelOf(values.spec, values.dir);
        const { exitCode } = await runMerge({
          inputs: positionals,
          root: process.cwd(),
          model,
          modelName,
          ...(reporters ? { reporters } : {}),
          reportDir: values['report-dir'],
          out: process.stdout,
          secrets: [process.env.DATAAPI_APPKEY],
          // Where the SARIF report locates its results.
          descriptionFile: spec ?? configuredSpec() ?? 'spec/openapi.yaml',
        });
        return exitCode;
      } catch (err) {
        if (err instanceof MergeError || err instanceof RunError || err instanceof SpecError) {
          process.stderr.write(`dataapi report merge: ${err.message}\n`);
          return err instanceof RunError ? err.exitCode : 2;
        }
        throw err;
      }
    }),
};
