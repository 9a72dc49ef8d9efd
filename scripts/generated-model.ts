/** The model of a generated tree (its model.json) for `mock` and `serve`, with a message a user can act on. */
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import { MissingModelError, readModelFile } from '../runtime/shared/model-file.ts';
import { UsageError } from './args.ts';

export async function readGeneratedModel(dir: string, what: string): Promise<ServiceModel> {
  try {
    return await readModelFile(dir);
  } catch (err) {
    if (!(err instanceof MissingModelError)) throw err;
    const shown = path.relative(process.cwd(), path.resolve(dir)) || dir;
    throw new UsageError(
      `no ${what} in ${shown} (no model.json): run \`dataapi generate\` first, or pass --spec FILE`,
    );
  }
}
