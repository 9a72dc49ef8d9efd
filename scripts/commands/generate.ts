/** `dataapi generate`: regenerate generated/ from the spec, or check it for drift. */
import path from 'node:path';
import type { Command } from '../cli.ts';
import { guard, parseFlags } from '../args.ts';
import { generate, hasDrift } from '../../generator/generate.ts';
import { SpecError } from '../../generator/load.ts';

const usage = `Usage: dataapi generate [--spec spec/openapi.yaml] [--out generated] [--check]

  --spec FILE   OpenAPI 3.0/3.1 description (YAML or JSON)     default: spec/openapi.yaml
  --out DIR     output folder, replaced atomically              default: generated
  --kinds LIST  render only these template kinds (client,server,mock,contract-tests);
                types.ts and the model are always emitted; the other kinds'
                files already in --out are kept as they are
  --force       regenerate even when nothing changed since the last run (a re-run
                with unchanged spec, templates and toolkit is otherwise skipped)
  --check       write nothing; compare with --out, list the files that differ,
                exit 1 on drift (for CI)

Exit codes: 0 ok, 1 drift (--check), 2 bad input (spec, flags).`;

export const command: Command = {
  summary: 'generate types, client, server stubs, mock and contract tests from the spec',
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(
        argv,
        {
          spec: { type: 'string', default: 'spec/openapi.yaml' },
          out: { type: 'string', default: 'generated' },
          check: { type: 'boolean', default: false },
          force: { type: 'boolean', default: false },
          kinds: { type: 'string' },
        },
        usage,
      );
      const kinds =
        typeof values.kinds === 'string'
          ? values.kinds
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean)
          : undefined;
      const spec = values.spec as string;
      const out = values.out as string;
      let result;
      // openapi-typescript can throw from a callback after its promise settled: that must still be
      // a clear "bad input" (exit 2) with nothing written, not a crash.
      const escaped = (err: unknown) => {
        process.stderr.write(
          `dataapi generate: ${(err as Error)?.message ?? String(err)}\nNothing was written.\n`,
        );
        process.exit(2);
      };
      process.once('uncaughtException', escaped);
      process.once('unhandledRejection', escaped);
      // Ctrl-C: the new tree is only swapped in when complete, so the old one is still there.
      const interrupted = () => {
        process.stderr.write(
          `\ndataapi generate: interrupted; ${path.normalize(out)} was left as it was (leftover temporary folders are removed by the next run).\n`,
        );
        process.exit(130);
      };
      process.once('SIGINT', interrupted);
      process.once('SIGTERM', interrupted);
      try {
        result = await generate({
          spec,
          out,
          check: values.check === true,
          force: values.force === true,
          ...(kinds ? { kinds } : {}),
        });
      } catch (err) {
        if (err instanceof SpecError) {
          process.stderr.write(`dataapi generate: ${err.message}\nNothing was written.\n`);
          return 2;
        }
        process.stderr.write(`dataapi generate: ${(err as Error).message}\nNothing was written.\n`);
        return 2;
      } finally {
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', interrupted);
      }
      const ops = result.operations;
      const previews = result.previews;
      const secs = (result.ms / 1000).toFixed(2);
      if (values.check) {
        if (hasDrift(result.drift)) {
          const d = result.drift!;
          const lines = [
            ...d.added.map((f) => `  added    ${f}`),
            ...d.removed.map((f) => `  removed  ${f}`),
            ...d.changed.map((f) => `  changed  ${f}`),
          ];
          process.stderr.write(
            `dataapi generate --check: ${path.normalize(out)} has drifted from the spec and templates:\n${lines.join('\n')}\nRun \`npm run generate\` and commit the result.\n`,
          );
          return 1;
        }
        process.stdout.write(
          `dataapi generate --check: ${ops} operations, ${previews} preview variants, ${result.files.length} files up to date (${secs}s)\n`,
        );
        return 0;
      }
      process.stdout.write(
        `dataapi generate: ${ops} operations, ${previews} preview variants, ${result.files.length} files (${result.written.length} written, ${result.unchanged} unchanged) in ${secs}s\n`,
      );
      return 0;
    }),
};
