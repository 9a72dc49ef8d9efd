/** Flag parsing shared by the commands: node's parseArgs with errors a user can act on. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../model/suggest.ts';
import { UsageError } from './args-error.ts';
import { configFlags, type FlagValue } from './config/active.ts';
import { parseArgsOptions, type FlagTable, type ValuesOf } from './flags/declare.ts';
import { flagPath } from './flags/paths.ts';
import { checkValue } from './flags/values.ts';

export { UsageError };

/** The flags of a command line: the command line's, else the configuration file's, else the default. */
export interface ParsedFlags {
  values: Record<string, FlagValue | undefined>;
  positionals: string[];
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A string flag followed by a negative number (`--timeout -5`) is that flag's value: node's
 * parser would take `-5` for a flag and refuse the line; our own check then says what is wrong.
 */
function joinNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = argv[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** node's parser messages, said plainly: the flag, what is wrong, and the closest known flag. */
function plainMessage(err: Error & { code?: string }, options: Options): string {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1] ?? '';
  const known = Object.keys(options).map((n) => `--${n}`);
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag}${didYouMean(flag.replace(/=.*$/, ''), known)}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = flag.replace(/^--?/, '');
      return options[name]?.type === 'boolean'
        ? `${flag} takes no value`
        : `${flag} needs a value (${flag} VALUE, or ${flag}=VALUE for a value that starts with "-")`;
    }
    default:
      return err.message;
  }
}

/** Positional words the command takes (default none): a stray word is refused, not ignored. */
type Positionals = { max: number; hint?: (word: string) => string };

export function parseFlags<T extends FlagTable>(
  argv: string[],
  table: T,
  usage: string,
  positionals: Positionals = { max: 0 },
): { values: ValuesOf<T>; positionals: string[] } {
  // Without their defaults, so that a flag not given can still come from the configuration file.
  const options = parseArgsOptions(table);
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv, options),
      options,
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(`${plainMessage(err as Error, options)}\n\n${usage}`);
  }
  const extra = parsed.positionals.slice(positionals.max);
  if (extra.length > 0) {
    const word = extra[0]!;
    throw new UsageError(
      `unexpected argument ${JSON.stringify(word)}${positionals.hint?.(word) ?? ''}\n\n${usage}`,
    );
  }
  const values = { ...parsed.values } as Record<string, FlagValue | undefined>;
  const fromConfig = configFlags(table);
  for (const [name, flag] of Object.entries(table)) {
    const cli = values[name];
    // The command line's paths are the working folder's (the file's: configFlags).
    if (cli !== undefined)
      values[name] = flag.path && typeof cli === 'string' ? flagPath(cli, process.cwd()) : cli;
    else if (fromConfig[name] !== undefined) {
      values[name] = fromConfig[name]; // checked there, in the file's words
      continue;
    } else
      values[name] =
        (flag.default as FlagValue | undefined) ??
        (flag.type === 'list' ? [] : flag.type === 'boolean' ? false : undefined);
    // A default from the environment (serve's $PORT) is checked as the flag it stands for.
    checkValue(`--${name}`, flag, values[name], `\n\n${usage}`);
  }
  return { values: values as ValuesOf<T>, positionals: parsed.positionals };
}

/** Runs a command body, turning usage errors into exit code 2 with the message on stderr. */
export async function guard(body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`dataapi: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
