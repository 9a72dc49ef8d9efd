/** `dataapi generate`: regenerate generated/ from the spec, or check it for drift. */
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags } from '../args.ts';
import { describeFindings, FIRST_FEW } from '../description-findings.ts';
import {
  generate,
  GeneratedCodeError,
  hasDrift,
  type GenerateResult,
} from '../../generator/generate.ts';

const usage = `Usage: dataapi generate [--spec spec/openapi.yaml] [--out generated] [--check]
                        [--no-typecheck] [--verbose]

  --spec FILE   OpenAPI 3.x or Swagger 2.0 (YAML or JSON)      default: spec/openapi.yaml
  --out DIR     output folder, replaced atomically              default: generated
  --kinds LIST  render only these template kinds (client,server,mock,contract-tests);
                types.ts and the model are always emitted; the other kinds'
                files already in --out are kept as they are
  --force       regenerate even when nothing changed since the last run (a re-run
                with unchanged spec, templates and toolkit is otherwise skipped)
  --check       write nothing; compare with --out, list the files that differ,
                exit 1 on drift (for CI)
  --no-typecheck  skip the type-check of the whole generated tree (run in memory
                before writing, beside formatting); the syntax check stays
  --verbose     list every finding about the description (without it: a count and
                the first ${FIRST_FEW}, on stderr)

Exit codes: 0 ok, 1 drift (--check) or generated code that does not compile
(its files and first errors named; nothing written), 2 bad input (spec, flags).`;

/**
 * Exits cleanly on what must not crash a run: openapi-typescript can throw from a callback after
 * its promise settled (still bad input: exit 2, nothing written), and Ctrl-C (the new tree is only
 * swapped in when complete, so the old one is still there). Returns the signal handlers' removal.
 */
function guardRun(out: string): () => void {
  const escaped = (err: unknown) => {
    process.stderr.write(
      `dataapi generate: ${(err as Error)?.message ?? String(err)}\nNothing was written.\n`,
    );
    process.exit(2);
  };
  process.once('uncaughtException', escaped);
  process.once('unhandledRejection', escaped);
  const interrupted = () => {
    process.stderr.write(
      `\ndataapi generate: interrupted; ${path.normalize(out)} was left as it was (leftover temporary folders are removed by the next run).\n`,
    );
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  return () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  };
}

/** The summary line, or (with --check) the files that drifted: exit 1. */
function report(result: GenerateResult, out: string, check: boolean): number {
  const counts = `${result.operations} operations, ${result.previews} preview variants`;
  const secs = (result.ms / 1000).toFixed(2);
  // A run that did not type-check says so: the tree is the one that checked before.
  const reused = result.typechecked === 'cached' ? '; type-check not repeated (same tree)' : '';
  if (!check) {
    process.stdout.write(
      `dataapi generate: ${counts}, ${result.files.length} files (${result.written.length} written, ${result.unchanged} unchanged) in ${secs}s${reused}\n`,
    );
    return 0;
  }
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
    `dataapi generate --check: ${counts}, ${result.files.length} files up to date (${secs}s${reused})\n`,
  );
  return 0;
}

export const command: Command = {
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
          'no-typecheck': { type: 'boolean', default: false },
          verbose: { type: 'boolean', default: false },
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
      const out = values.out as string;
      const unguard = guardRun(out);
      let result: GenerateResult;
      try {
        result = await generate({
          spec: values.spec as string,
          out,
          check: values.check === true,
          force: values.force === true,
          typecheck: values['no-typecheck'] !== true,
          ...(kinds ? { kinds } : {}),
        });
      } catch (err) {
        // A bad spec (SpecError, with its locations): bad input, nothing written; output of ours
        // that does not compile: our fault, exit 1.
        process.stderr.write(`dataapi generate: ${(err as Error).message}\nNothing was written.\n`);
        return err instanceof GeneratedCodeError ? 1 : 2;
      } finally {
        unguard();
      }
      // What the description itself gets wrong, where the user first runs the toolkit.
      if (result.model)
        process.stderr.write(
          describeFindings('generate', result.model.findings, values.verbose === true),
        );
      return report(result, out, values.check === true);
    }),
};
