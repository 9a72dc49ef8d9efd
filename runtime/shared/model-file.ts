/**
 * The normalised model of a generated tree, read from its model.json: the commands need it
 * without importing generated TypeScript (which plain Node cannot load).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';

/** A generated tree without a model.json: the caller turns it into its own message. */
export class MissingModelError extends Error {
  constructor(readonly file: string) {
    super(
      `${path.relative(process.cwd(), file) || file} is missing: run \`dataapi generate\` first`,
    );
  }
}

export async function readModelFile(generatedDir: string): Promise<ServiceModel> {
  const file = path.resolve(generatedDir, 'model.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new MissingModelError(file);
  }
  return JSON.parse(text) as ServiceModel;
}
