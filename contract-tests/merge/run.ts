/**
 * `dataapi report merge`: reads the runs' results, merges them into one run and writes every
 * report of it (the merged results file among them), as `dataapi contract` would have for one
 * run that did all of it.
 */
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import { writeReports, OWN_REPORTERS } from '../reports/index.ts';
import type { ContractRunResult } from '../results.ts';
import { colorFor, refuseNonFolder } from '../run-input.ts';
import { readMergeInputs } from './inputs.ts';
import { mergeResults } from './merge-results.ts';

export interface MergeRunOptions {
  /** The folders (or results files) as given. */
  inputs: string[];
  root: string;
  model: ServiceModel;
  /** How messages name where the model came from (`generated/model.json`, `--spec x.yaml`). */
  modelName: string;
  /** Default: every reporter of ours. */
  reporters?: string[];
  reportDir: string;
  out: NodeJS.WritableStream;
  /** The key, should one have reached a results file: no report shows it. */
  secrets: (string | undefined)[];
  descriptionFile: string;
}

/** Exit code as `dataapi contract`'s: 1 when a merged check failed or a run had an error. */
export function mergedExitCode(result: ContractRunResult): number {
  const failed =
    result.summary.failed > 0 ||
    result.errors.length > 0 ||
    (result.options.strict === true && result.warnings.length > 0);
  return failed ? 1 : 0;
}

export async function runMerge(o: MergeRunOptions): Promise<{
  exitCode: number;
  result: ContractRunResult;
}> {
  const reportDir = path.resolve(o.root, o.reportDir);
  await refuseNonFolder(reportDir, '--report-dir');
  const inputs = await readMergeInputs(o.inputs, o);
  const result = mergeResults(inputs.map((i) => i.result));
  const runs = inputs.length === 1 ? '1 run' : `${inputs.length} runs`;
  o.out.write(`dataapi report merge: ${runs} merged: ${inputs.map((i) => i.name).join(', ')}\n`);
  await writeReports(result, {
    model: o.model,
    reporters: o.reporters ?? [...OWN_REPORTERS],
    dir: reportDir,
    root: o.root,
    out: o.out,
    secrets: o.secrets,
    resultsFile: path.join(reportDir, 'contract-results.json'),
    color: colorFor(o.out),
    descriptionFile: o.descriptionFile,
  });
  return { exitCode: mergedExitCode(result), result };
}
