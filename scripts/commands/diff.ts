/** `dataapi diff`: the breaking-change gate between two versions of the description. */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import {
  DiffInputError,
  diffSpecs,
  exitCodeOf,
  formatReport,
  type DiffFormat,
} from '../../generator/diff/index.ts';
import { DIFF_FLAGS } from '../flags/diff.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi diff BASE [HEAD] [options]
       dataapi diff --base origin/main [options]

Compares two versions of an OpenAPI 3.x (or Swagger 2.0) description and classifies every change as
breaking, warning (breaks only strict clients) or compatible, with a stable rule id and where
it is (method, path, JSON pointer, line). BASE and HEAD are files (or folders holding the
--spec file name) or git revisions: \`origin/main\` reads --spec as of that revision, with every
file its $refs reach; \`REV:path/openapi.yaml\` names another path. HEAD defaults to --spec in
the working tree. Both sides go through the same loader and model as \`dataapi generate\`, so
$refs, split files and 3.0 vs 3.1 spellings of the same schema are no change.

${flagLines(DIFF_FLAGS)}

Checked, among others: removed operations, statuses, responses and /demo previews; added
required parameters and body fields; optional made required; narrowed request types, enums
and bounds; removed or retyped response fields; renamed operationIds; envelope spelling; key
transports; lower rate limits; business codes. New response enum values are warnings. Removing
a deprecated operation (x-dataapi-sunset) before its sunset day is breaking, from it on not.

Examples:
  dataapi diff --base origin/main                          # CI: this branch's spec/ vs main
  dataapi diff --base origin/main --format markdown --output diff.md
  dataapi diff old.yaml new.yaml --format json
  dataapi diff v1.2.0 --allow api-operation-id-changed:getAirQuality

Exit codes: 0 no breaking change (warnings allowed), 1 breaking changes, 2 bad input
(unreadable file, unknown revision, invalid description, bad flags) with nothing written.`;

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values, positionals } = parseFlags(
        argv,
        DIFF_FLAGS,
        usage,
        { max: 3 }, // BASE [HEAD]; a third word is refused below with the usage
      );
      const format = values.format;
      const today = values.today;
      const flagBase = values.base;
      if (flagBase !== undefined && positionals.length > 1)
        throw new UsageError(`--base and a BASE argument both given\n\n${usage}`);
      const [base, head, extra] = flagBase !== undefined ? [flagBase, ...positionals] : positionals;
      if (base === undefined) throw new UsageError(`BASE is missing\n\n${usage}`);
      if (extra !== undefined)
        throw new UsageError(`unexpected argument ${JSON.stringify(extra)}\n\n${usage}`);
      let report;
      try {
        report = await diffSpecs({
          base,
          ...(head !== undefined ? { head } : {}),
          spec: values.spec,
          allow: values.allow,
          ...(today !== undefined ? { today } : {}),
        });
      } catch (err) {
        if (err instanceof DiffInputError) {
          process.stderr.write(`dataapi diff: ${err.message}\nNothing was written.\n`);
          return 2;
        }
        throw err;
      }
      const out = formatReport(report, format as DiffFormat);
      const file = values.output;
      if (file === undefined) process.stdout.write(out);
      else {
        // Written whole or not at all: a reader never sees half a report.
        const target = path.resolve(file);
        await mkdir(path.dirname(target), { recursive: true });
        const tmp = `${target}.${process.pid}.tmp`;
        await writeFile(tmp, out);
        await rename(tmp, target);
        const s = report.summary;
        process.stderr.write(
          `dataapi diff: ${s.breaking} breaking, ${s.warning} warnings, ${s.compatible} compatible -> ${file}\n`,
        );
      }
      return exitCodeOf(report);
    }),
};
