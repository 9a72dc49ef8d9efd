/**
 * The inputs of `dataapi report merge`: each folder's results file, read and checked before
 * anything is written. A folder without results, a file of another version, results of another
 * description or the same shard twice is a MergeError (bad input, exit 2) that names the folder.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import { describeIdentity, descriptionIdentity } from '../description-identity.ts';
import type { ContractRunResult } from '../results.ts';
import { shardsOf } from './merge-results.ts';

export const RESULTS_FILE = 'contract-results.json';

export class MergeError extends Error {
  readonly exitCode = 2;
}

export interface MergeInput {
  /** As the user named it (a folder, or a results file). */
  name: string;
  result: ContractRunResult;
}

/** The fields the JSON report adds to a run's results (reports/report.ts): computed again. */
function runResultOf(value: Record<string, unknown>): ContractRunResult {
  const { reportVersion: _v, checks: _c, coverageReport: _r, ...result } = value;
  // Results written before warnings and errors were listed have none.
  return { warnings: [], errors: [], ...result } as unknown as ContractRunResult;
}

async function readInput(name: string, root: string): Promise<MergeInput> {
  const full = path.resolve(root, name);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw new MergeError(`${name}: no such folder`);
  const file = info.isDirectory() ? path.join(full, RESULTS_FILE) : full;
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined)
    throw new MergeError(
      `${name}: no ${RESULTS_FILE} in it (the report folder of a \`dataapi contract\` or \`dataapi proxy\` run holds one)`,
    );
  const shown = path.relative(root, file) || file;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new MergeError(`${shown}: not JSON (${(err as Error).message})`);
  }
  const v = value as Partial<ContractRunResult> | null;
  if (v === null || typeof v !== 'object' || !('version' in v))
    throw new MergeError(`${shown}: not the results of a dataapi run (no version)`);
  if (v.version !== 1)
    throw new MergeError(
      `${shown}: results version ${JSON.stringify(v.version)}; this dataapi reads version 1 (was it written by a newer dataapi?)`,
    );
  if (
    !Array.isArray(v.results) ||
    typeof v.summary !== 'object' ||
    typeof v.options !== 'object' ||
    typeof v.target !== 'object'
  )
    throw new MergeError(`${shown}: not the results of a dataapi run (results, summary missing)`);
  return { name, result: runResultOf(value as Record<string, unknown>) };
}

/**
 * Why these inputs cannot be one run, checked against the description the reports are rendered
 * with: results of another description (by the identity results carry; those written before it
 * existed are taken as they are), a shard given twice or shards of different splits, the same
 * run twice.
 */
function refuseIncompatible(inputs: MergeInput[], model: ServiceModel, modelName: string): void {
  const own = descriptionIdentity(model);
  for (const { name, result } of inputs) {
    const d = result.description;
    if (!d) continue;
    const other = inputs.find((i) => i.result.description && i.result.description.hash !== d.hash);
    if (other)
      throw new MergeError(
        `results of different descriptions: ${name} is of ${describeIdentity(d)}, ${other.name} of ${describeIdentity(other.result.description!)}`,
      );
    if (d.hash !== own.hash)
      throw new MergeError(
        `${name} is of ${describeIdentity(d)}, but ${modelName} is ${describeIdentity(own)}: give the description the runs tested with --spec FILE`,
      );
  }
  const shards = new Map<string, string>();
  for (const { name, result } of inputs)
    for (const shard of shardsOf(result)) {
      const twice = shards.get(shard);
      if (twice !== undefined) throw new MergeError(`shard ${shard} twice: ${twice} and ${name}`);
      const split = [...shards.entries()].find(([s]) => s.split('/')[1] !== shard.split('/')[1]);
      if (split)
        throw new MergeError(
          `shards of different splits: ${split[0]} (${split[1]}) and ${shard} (${name})`,
        );
      shards.set(shard, name);
    }
  const runs = new Map<string, string>();
  for (const { name, result } of inputs) {
    const id = `${result.startedAt} ${result.durationMs} ${result.target.baseUrl} ${result.options.shard}`;
    const twice = runs.get(id);
    if (twice !== undefined) throw new MergeError(`the same run twice: ${twice} and ${name}`);
    runs.set(id, name);
  }
}

/** Reads every input (in the order given) and refuses what cannot be merged. */
export async function readMergeInputs(
  names: string[],
  o: { root: string; model: ServiceModel; modelName: string },
): Promise<MergeInput[]> {
  const inputs: MergeInput[] = [];
  for (const name of names) inputs.push(await readInput(name, o.root));
  refuseIncompatible(inputs, o.model, o.modelName);
  return inputs;
}
