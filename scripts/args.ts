/** Flag parsing shared by the commands: node's parseArgs with errors a user can act on. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${usage}`);
  }
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
