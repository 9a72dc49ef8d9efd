/** `dataapi lint`: check the catalogue's own rules on top of OpenAPI validity. */
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { SpecError } from '../../generator/load.ts';
import { lintSpec } from '../../generator/lint/index.ts';
import { formatJson, formatText } from '../../generator/lint/format.ts';

const usage = `Usage: dataapi lint [--spec spec/openapi.yaml] [--format text|json]

  --spec FILE      OpenAPI 3.0/3.1 description (YAML or JSON)    default: spec/openapi.yaml
  --format FORMAT  text (one line per finding) or json (for tools) default: text

Checks, on top of OpenAPI validity: every operation has a category (a root tag), an envelope
(x-dataapi-envelope, or none), a business code group when enveloped, a rate limit, examples for
request bodies and 200 responses that validate, its /demo preview variant when detailed, a unique
operationId, and the error responses of docs/service.md §4. Each finding names the line, the JSON pointer
and a stable rule id (see docs/integrators.md).

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 bad input (spec, flags).`;

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(
        argv,
        {
          spec: { type: 'string', default: 'spec/openapi.yaml' },
          format: { type: 'string', default: 'text' },
        },
        usage,
      );
      const format = values.format as string;
      if (format !== 'text' && format !== 'json')
        throw new UsageError(`--format must be text or json, not ${JSON.stringify(format)}`);
      let report;
      try {
        report = await lintSpec(values.spec as string);
      } catch (err) {
        if (err instanceof SpecError) {
          process.stderr.write(`dataapi lint: ${err.message}\n`);
          return 2;
        }
        throw err;
      }
      process.stdout.write(format === 'json' ? formatJson(report) : formatText(report));
      return report.errors > 0 ? 1 : 0;
    }),
};
