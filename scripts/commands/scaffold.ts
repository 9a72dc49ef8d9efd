/** `dataapi scaffold operation`: add an operation to the spec, create its handler, regenerate. */
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError, type ParsedFlags } from '../args.ts';
import { SpecError } from '../../generator/load.ts';
import { METHODS } from '../../generator/normalise/index.ts';
import {
  parseField,
  parseRateLimit,
  scaffold,
  ScaffoldError,
  type ScaffoldRequest,
  type ScaffoldResult,
} from '../../generator/scaffold/index.ts';
import { SCAFFOLD_METHODS } from '../../generator/scaffold/request.ts';

const usage = `Usage: dataapi scaffold operation --method get --path /weather/forecast --category "Weather, air quality" [options]

Adds the operation to the spec (with its /demo preview variant, envelope, business code group,
rate limit, the error responses of docs/service.md §4 and a 200 example that validates), creates its
handler file handlers/<operation>.ts once (never overwritten), and regenerates.

  --method METHOD        get, post, put, patch or delete                      (required)
  --path TEMPLATE        path template, e.g. /weather/forecast or /items/{id}  (required)
  --category NAME        an existing tag of the spec                            (required)
  --id OPERATION_ID      default: from method and path (getWeatherForecast)
  --summary TEXT         default: from the operationId
  --envelope SPELLING    capitalised | lowerCamel | none                       default: capitalised
  --codes GROUP          a group of x-dataapi-business-code-groups (A, B, C, base) default: base
  --param SPEC           name:type[:required], repeatable; type string|integer|number|boolean.
                         Query parameters; {names} of the path become path parameters
  --body-field SPEC      name:type[:required], repeatable: a JSON request body
  --no-preview           no /demo preview variant (x-dataapi-preview: false)
  --rate-limit N/UNIT    e.g. 5/s, 100/minute                      default: the spec's root default
  --writes               the operation changes state (contract runs send it only with --allow-writes)
  --spec FILE            the YAML description to edit                  default: spec/openapi.yaml
  --out DIR              the generated folder to refresh               default: generated
  --handlers DIR         where handler files are created               default: handlers
  --dry-run              print what would be added; change nothing

Exit codes: 0 added (or dry run), 1 added but regeneration failed, 2 refused (nothing changed).`;

const FLAGS = {
  method: { type: 'string' },
  path: { type: 'string' },
  category: { type: 'string' },
  id: { type: 'string' },
  summary: { type: 'string' },
  envelope: { type: 'string', default: 'capitalised' },
  codes: { type: 'string' },
  param: { type: 'string', multiple: true, default: [] },
  'body-field': { type: 'string', multiple: true, default: [] },
  'no-preview': { type: 'boolean', default: false },
  'rate-limit': { type: 'string' },
  writes: { type: 'boolean', default: false },
  spec: { type: 'string', default: 'spec/openapi.yaml' },
  out: { type: 'string', default: 'generated' },
  handlers: { type: 'string', default: 'handlers' },
  'dry-run': { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

type Values = ParsedFlags['values'];

/** The flags' usage errors (exit 2 through guard), before anything is read. */
function checkFlags(values: Values, positionals: string[]): void {
  if (positionals[0] !== 'operation')
    throw new UsageError(`expected \`dataapi scaffold operation ...\`\n\n${usage}`);
  for (const flag of ['method', 'path', 'category'] as const)
    if (typeof values[flag] !== 'string' || values[flag] === '')
      throw new UsageError(`--${flag} is required\n\n${usage}`);
  const method = (values.method as string).toLowerCase();
  if (!SCAFFOLD_METHODS.includes(method as never))
    throw new UsageError(
      `--method must be one of ${SCAFFOLD_METHODS.join(', ')}${METHODS.includes(method as never) ? ` (${method} operations are not scaffolded)` : ''}, not ${JSON.stringify(values.method)}`,
    );
  const envelope = values.envelope as string;
  if (envelope !== 'capitalised' && envelope !== 'lowerCamel' && envelope !== 'none')
    throw new UsageError(
      `--envelope must be capitalised, lowerCamel or none, not ${JSON.stringify(envelope)}`,
    );
}

/** The request the flags describe (a bad --param or --rate-limit is a ScaffoldError). */
function requestOf(values: Values): ScaffoldRequest {
  return {
    method: (values.method as string).toLowerCase() as ScaffoldRequest['method'],
    path: values.path as string,
    category: values.category as string,
    ...(values.id !== undefined ? { id: values.id as string } : {}),
    ...(values.summary !== undefined ? { summary: values.summary as string } : {}),
    envelope: values.envelope as ScaffoldRequest['envelope'],
    ...(values.codes !== undefined ? { codes: values.codes as string } : {}),
    params: (values.param as string[]).map((p) => parseField(p, '--param')),
    bodyFields: (values['body-field'] as string[]).map((p) => parseField(p, '--body-field')),
    preview: values['no-preview'] !== true,
    ...(values['rate-limit'] !== undefined
      ? { rateLimit: parseRateLimit(values['rate-limit'] as string) }
      : {}),
    writes: values.writes === true,
  };
}

const rel = (p: string) => path.relative(process.cwd(), p) || p;

function printDryRun(result: ScaffoldResult, ops: string): number {
  const snippets = result.insertions.map((i) => i.text.replace(/^\n/, '')).join('\n');
  const handler = result.handler.source
    ? `and create ${rel(result.handler.path)}:\n\n${result.handler.source}\n`
    : `and keep ${rel(result.handler.path)} (it exists; never overwritten), `;
  process.stdout.write(
    `dataapi scaffold --dry-run: would add ${ops} to ${result.spec}:\n\n${snippets}\n${handler}then regenerate. Nothing was changed.\n`,
  );
  return 0;
}

/** What was added, created and regenerated; exit 1 when only the regeneration failed. */
function printResult(result: ScaffoldResult, out: string, dryRun: boolean): number {
  const ops = result.added.map((a) => `${a.method.toUpperCase()} ${a.path}`).join(' and ');
  if (dryRun) return printDryRun(result, ops);
  const lines = [
    `dataapi scaffold: added ${ops} (${result.id}) to ${result.spec}`,
    result.handler.created
      ? `  created ${rel(result.handler.path)}: implement the handler there`
      : `  kept ${rel(result.handler.path)} (it exists; never overwritten)`,
  ];
  if (result.generateError) {
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stderr.write(
      `dataapi scaffold: the spec was updated, but regeneration failed: ${result.generateError.message}\nFix it and run \`dataapi generate\`.\n`,
    );
    return 1;
  }
  if (result.generated) {
    lines.push(
      `  regenerated ${rel(path.resolve(out))}/ (${result.generated.written.length} files written: stub, client method, mock and contract tests of ${result.id})`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values, positionals } = parseFlags(argv, FLAGS, usage, { max: 1 });
      checkFlags(values, positionals);
      let result: ScaffoldResult;
      try {
        result = await scaffold(requestOf(values), {
          spec: values.spec as string,
          out: values.out as string,
          handlersDir: values.handlers as string,
          dryRun: values['dry-run'] === true,
        });
      } catch (err) {
        if (err instanceof ScaffoldError || err instanceof SpecError) {
          process.stderr.write(`dataapi scaffold: ${err.message}\nNothing was changed.\n`);
          return 2;
        }
        throw err;
      }
      return printResult(result, values.out as string, values['dry-run'] === true);
    }),
};
