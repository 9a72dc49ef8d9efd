/** `dataapi scaffold operation`: add an operation to the spec, create its handler, regenerate. */
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import type { ValuesOf } from '../flags/declare.ts';
import { SpecError } from '../../generator/load.ts';
import {
  parseField,
  parseRateLimit,
  scaffold,
  ScaffoldError,
  type ScaffoldRequest,
  type ScaffoldResult,
} from '../../generator/scaffold/index.ts';
import { SCAFFOLD_FLAGS } from '../flags/scaffold.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi scaffold operation --method get --path /weather/forecast --category "Weather, air quality" [options]

Adds the operation to the spec (with its /demo preview variant, envelope, business code group,
rate limit, the error responses of docs/service.md §4 and a 200 example that validates), creates its
handler file handlers/<operation>.ts once (never overwritten), and regenerates.

${flagLines(SCAFFOLD_FLAGS)}

Exit codes: 0 added (or dry run), 1 added but regeneration failed, 2 refused (nothing changed).`;

type Values = ValuesOf<typeof SCAFFOLD_FLAGS>;

/** The flags' usage errors (exit 2 through guard), before anything is read. */
function checkFlags(values: Values, positionals: string[]): void {
  if (positionals[0] !== 'operation')
    throw new UsageError(`expected \`dataapi scaffold operation ...\`\n\n${usage}`);
  for (const flag of ['method', 'path', 'category'] as const)
    if (values[flag] === undefined || values[flag] === '')
      throw new UsageError(`--${flag} is required\n\n${usage}`);
}

/** The request the flags describe (a bad --param or --rate-limit is a ScaffoldError). */
function requestOf(values: Values): ScaffoldRequest {
  return {
    method: values.method!.toLowerCase() as ScaffoldRequest['method'],
    path: values.path!,
    category: values.category!,
    ...(values.id !== undefined ? { id: values.id } : {}),
    ...(values.summary !== undefined ? { summary: values.summary } : {}),
    envelope: values.envelope as ScaffoldRequest['envelope'],
    ...(values.codes !== undefined ? { codes: values.codes } : {}),
    params: values.param.map((p) => parseField(p, '--param')),
    bodyFields: values['body-field'].map((p) => parseField(p, '--body-field')),
    preview: !values['no-preview'],
    ...(values['rate-limit'] !== undefined
      ? { rateLimit: parseRateLimit(values['rate-limit']) }
      : {}),
    writes: values.writes,
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
      const { values, positionals } = parseFlags(argv, SCAFFOLD_FLAGS, usage, { max: 1 });
      checkFlags(values, positionals);
      let result: ScaffoldResult;
      try {
        result = await scaffold(requestOf(values), {
          spec: values.spec,
          out: values.out,
          handlersDir: values.handlers,
          dryRun: values['dry-run'],
        });
      } catch (err) {
        if (err instanceof ScaffoldError || err instanceof SpecError) {
          process.stderr.write(`dataapi scaffold: ${err.message}\nNothing was changed.\n`);
          return 2;
        }
        throw err;
      }
      return printResult(result, values.out, values['dry-run']);
    }),
};
