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
  const model = JSON.parse(text) as ServiceModel;
  if (isStale(model)) throw new StaleModelError(file);
  return model;
}

/**
 * A model.json written by an earlier dataapi (parameters as one flat list, before they were
 * grouped by location): read as it is, a command would crash far from the cause.
 */
function isStale(model: ServiceModel): boolean {
  return (model.operations ?? []).some((op) => Array.isArray(op.parameters));
}

/** A model.json of an earlier model shape: the same remedy as a missing one. */
export class StaleModelError extends MissingModelError {
  constructor(file: string) {
    super(file);
    this.message = `${path.relative(process.cwd(), file) || file} was written by an earlier dataapi: run \`dataapi generate\` again`;
  }
}
