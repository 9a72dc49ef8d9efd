/** `dataapi lint`: check the catalogue's own rules on top of OpenAPI validity. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags } from '../args.ts';
import { SpecError } from '../../generator/load.ts';
import { lintSpec } from '../../generator/lint/index.ts';
import { formatJson, formatSarif, formatText } from '../../generator/lint/format.ts';
import { describeFindings } from '../description-findings.ts';
import { LINT_FLAGS } from '../flags/lint.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi lint [--spec spec/openapi.yaml] [--format text|json|sarif] [--output FILE]
                    [--verbose]

${flagLines(LINT_FLAGS)}

Checks, on top of OpenAPI validity: every operation has a category (a root tag), an envelope
(x-dataapi-envelope, or none), a business code group when enveloped, a rate limit, examples for
request bodies and 200 responses that validate, its /demo preview variant when detailed, a unique
operationId, the error responses of docs/service.md §4, and a deprecated operation's sunset
(a day still to come) and successor (an operationId). Each finding names the line, the JSON pointer
and a stable rule id (see docs/integrators.md).

The service's own rules (categories, envelopes, business codes, rate limits, the error table,
previews, an example everywhere) apply to descriptions written in its conventions: one with an
x-dataapi- extension (at its root or on an operation) or an enveloped operation. Any other
description gets the generic rules only: operationIds, examples that validate, extensions.

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 bad input (spec, flags).`;

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(argv, LINT_FLAGS, usage);
      const format = values.format;
      const today = values.today;
      let report;
      try {
        report = await lintSpec(values.spec, today !== undefined ? { today } : {});
      } catch (err) {
        if (err instanceof SpecError) {
          process.stderr.write(`dataapi lint: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
      const out =
        format === 'json'
          ? formatJson(report)
          : format === 'sarif'
            ? formatSarif(report)
            : formatText(report);
      const file = values.output;
      // The description's load and normalise findings (not lint rules): said apart, on stderr.
      process.stderr.write(describeFindings('lint', report.description ?? [], values.verbose));
      if (file === undefined) process.stdout.write(out);
      else {
        await mkdir(path.dirname(path.resolve(file)), { recursive: true });
        await writeFile(file, out);
        process.stderr.write(
          `dataapi lint: ${report.errors} errors, ${report.warnings} warnings -> ${file}\n`,
        );
      }
      return report.errors > 0 ? 1 : 0;
    }),
};
