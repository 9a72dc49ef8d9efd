/**
 * `dataapi start` (`npm start`): generate, start the embedded mock, run the contract suite against
 * it and print the summary. Exit code as `dataapi contract`.
 */
import type { Command } from '../command.ts';
import { guard, parseFlags } from '../args.ts';
import { generate } from '../../generator/generate.ts';
import { SpecError } from '../../generator/load.ts';
import { RunError, runContract } from '../../contract-tests/runner.ts';

const usage = `Usage: dataapi start [--spec spec/openapi.yaml] [--reporter NAME,...] [--timeout ms]

Regenerates generated/ from the spec, starts the embedded mock on an ephemeral port, runs the
contract suite against it and prints the summary.
Exit codes: 0 every check passed, 1 a check failed, 2 bad input (spec, flags).`;

export const command: Command = {
  summary: 'generate, start the embedded mock and run the contract suite against it',
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(
        argv,
        {
          spec: { type: 'string', default: 'spec/openapi.yaml' },
          reporter: { type: 'string', multiple: true },
          timeout: { type: 'string', default: '10000' },
        },
        usage,
      );
      try {
        const g = await generate({ spec: values.spec as string, out: 'generated' });
        process.stdout.write(
          `dataapi start: generated ${g.operations} operations (${g.written.length} files written)\n`,
        );
      } catch (err) {
        const msg = err instanceof SpecError ? err.message : (err as Error).message;
        process.stderr.write(`dataapi start: ${msg}\nNothing was written.\n`);
        return 2;
      }
      const reporters = ((values.reporter as string[] | undefined) ?? []).flatMap((r) =>
        r
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
      const timeoutMs = Number(values.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
        process.stderr.write(`dataapi start: --timeout must be a positive integer\n`);
        return 2;
      }
      try {
        const outcome = await runContract({
          timeoutMs,
          allowWrites: true,
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
