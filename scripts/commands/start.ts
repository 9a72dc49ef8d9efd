/**
 * `dataapi start` (`npm start`): generate, start the embedded mock, run the contract suite against
 * it and print the summary. Exit code as `dataapi contract`.
 */
import type { Command } from '../command.ts';
import { guard, parseFlags } from '../args.ts';
import { generate } from '../../generator/generate.ts';
import { SpecError } from '../../generator/load.ts';
import { RunError, runContract } from '../../contract-tests/runner.ts';
import { SpecInputError, suiteFor } from '../spec-suite.ts';
import { configuredSpec } from '../config/active.ts';
import { START_FLAGS } from '../flags/start.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi start [--spec FILE] [--base-url URL] [--reporter NAME,...] [--timeout ms]
                     [--report-dir DIR] [--strict]

Without --spec: regenerates generated/ from spec/openapi.yaml (or the configuration file's
spec and output), starts the embedded mock on an
ephemeral port, runs the contract suite against it and prints the summary.
With --spec FILE: the same for any OpenAPI 3.0/3.1 description, generated into a cache folder
(node_modules/.cache/dataapi/); generated/ is left alone.
${flagLines(START_FLAGS)}
Exit codes: 0 every check passed, 1 a check failed, 2 bad input (spec, flags).`;

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(argv, START_FLAGS, usage);
      const timeoutMs = Number(values.timeout);
      let generatedDir: string | undefined;
      try {
        if (values.spec !== undefined) {
          const suite = await suiteFor(values.spec);
          generatedDir = suite.generatedDir;
          process.stdout.write(
            `dataapi start: ${suite.operations} operations of ${values.spec} (suite ${suite.regenerated ? 'generated' : 'up to date'} in ${suite.generatedDir})\n`,
          );
        } else {
          generatedDir = values.dir;
          const spec = configuredSpec() ?? 'spec/openapi.yaml';
          const g = await generate({ spec, out: generatedDir });
          process.stdout.write(
            `dataapi start: generated ${g.operations} operations (${g.written.length} files written)\n`,
          );
        }
      } catch (err) {
        const msg =
          err instanceof SpecError || err instanceof SpecInputError
            ? err.message
            : (err as Error).message;
        process.stderr.write(`dataapi start: ${msg}\n`);
        return 2;
      }
      const reporters = values.reporter.flatMap((r) =>
        r
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
      try {
        const outcome = await runContract({
          timeoutMs,
          allowWrites: true,
          ...(generatedDir ? { generatedDir } : {}),
          ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
          ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] } : {}),
          ...(values.strict ? { strict: true } : {}),
          ...(reporters.length ? { reporters } : {}),
          ...(process.env.DATAAPI_APPKEY ? { appkey: process.env.DATAAPI_APPKEY } : {}),
        });
        return outcome.exitCode;
      } catch (err) {
        if (err instanceof RunError) {
          process.stderr.write(`dataapi start: ${err.message}\n`);
          return err.exitCode;
        }
        throw err;
      }
    }),
};
