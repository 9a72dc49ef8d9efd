/** The one reading of a path flag's value, wherever it was written. */
import path from 'node:path';

/**
 * A path written relative to `from` (the working folder for the command line, the configuration
 * file's folder for the file), as the command takes it: relative to the working folder, so that
 * its messages name it as the user would. A URL or an absolute path is kept as it is.
 */
export function flagPath(value: string, from: string, cwd = process.cwd()): string {
  if (/^https?:\/\//i.test(value) || path.isAbsolute(value)) return value;
  // Written from here: left as written (`./handlers` stays `./handlers` in messages).
  if (path.resolve(from) === path.resolve(cwd)) return value;
  return path.relative(cwd, path.resolve(from, value)) || '.';
}
