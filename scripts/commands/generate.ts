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
import { GENERATE_FLAGS } from '../flags/generate.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi generate [--spec spec/openapi.yaml] [--out generated] [--check]
                        [--no-typecheck] [--verbose]

${flagLines(GENERATE_FLAGS)}

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
      const { values } = parseFlags(argv, GENERATE_FLAGS, usage);
      const kinds =
        typeof values.kinds === 'string'
          ? values.kinds
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean)
          : undefined;
      const out = values.out;
      const unguard = guardRun(out);
      let result: GenerateResult;
      try {
        result = await generate({
          spec: values.spec,
          out,
          check: values.check,
          force: values.force,
          typecheck: !values['no-typecheck'],
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
        process.stderr.write(describeFindings('generate', result.model.findings, values.verbose));
      return report(result, out, values.check);
    }),
};
