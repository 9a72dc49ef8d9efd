/** Flag parsing shared by the commands: node's parseArgs with errors a user can act on. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../model/suggest.ts';

export class UsageError extends Error {}

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

export function parseFlags<T extends Options>(
  argv: string[],
  options: T,
  usage: string,
  /** Positional words the command takes (default none): a stray word is refused, not ignored. */
  positionals: { max: number; hint?: (word: string) => string } = { max: 0 },
) {
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
  return parsed;
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
