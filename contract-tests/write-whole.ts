/**
 * A file written whole: to a temporary file beside it, then renamed. A reader (a CI page that
 * follows the proxy's periodic reports, a test) never sees half of it.
 */
import { rename, writeFile } from 'node:fs/promises';

export async function writeWhole(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
