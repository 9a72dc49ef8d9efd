/**
 * `dataapi contract --from-har FILE [--replay-to URL]` and `--compare-mock`: the flags' checks and
 * the hand-over (kept out of contract.ts, which runs the suite).
 */
import path from 'node:path';
import { UsageError } from '../args.ts';
import { HarError } from '../../contract-tests/proxy/har.ts';
import { loadModel, RunError, type RunOptions } from '../../contract-tests/runner.ts';
import { SpecInputError, suiteFor } from '../spec-suite.ts';

/** Flags of a suite run that mean nothing to recorded traffic. */
const SUITE_ONLY = [
  'base-url',
  'only',
  'shard',
  'budget',
  'fuzz',
  'seed',
  'replay',
  'max-response-time',
  'results',
  'strict',
];

export function harFlags(
  values: Record<string, unknown>,
  usage: string,
): { fromHar?: string; replayTo?: string } {
  const fromHar = values['from-har'] as string | undefined;
  const replayTo = values['replay-to'] as string | undefined;
  if (fromHar === undefined) {
    if (replayTo !== undefined)
      throw new UsageError(
        `--replay-to re-sends a recording: give --from-har FILE too\n\n${usage}`,
      );
    return {};
  }
  const clash = SUITE_ONLY.find((k) => values[k] !== undefined && values[k] !== false);
  if (clash)
    throw new UsageError(`--from-har judges recorded traffic: it takes no --${clash}\n\n${usage}`);
  return { fromHar, ...(replayTo !== undefined ? { replayTo } : {}) };
}

export async function runFromHar(
  o: RunOptions & { fromHar: string; replayTo?: string; spec?: string },
): Promise<number> {
  const root = path.resolve(o.root ?? process.cwd());
  try {
    const generatedDir =
      o.spec !== undefined ? (await suiteFor(o.spec)).generatedDir : path.join(root, 'generated');
    // Loaded for this mode only: the judges and what they read (XML, the sampler).
    const { judgeHar } = await import('../../contract-tests/proxy/from-har.ts');
    return await judgeHar({
      model: await loadModel(generatedDir),
      file: o.fromHar,
      ...(o.replayTo ? { replayTo: o.replayTo } : {}),
      allowWrites: o.allowWrites,
      ...(o.appkey ? { appkey: o.appkey } : {}),
      timeoutMs: o.timeoutMs,
      ...(o.reporters ? { reporters: o.reporters } : {}),
      reportDir: o.reportDir ?? 'reports',
      root,
      out: process.stdout,
      ...(o.severity ? { severity: o.severity } : {}),
      ...(o.descriptionFile !== undefined ? { descriptionFile: o.descriptionFile } : {}),
    });
  } catch (err) {
    if (err instanceof HarError || err instanceof SpecInputError) {
      process.stderr.write(`dataapi contract: ${err.message}\n`);
      return 2;
    }
    if (err instanceof RunError) {
      process.stderr.write(`dataapi contract: ${err.message}\n`);
      return err.exitCode;
    }
    if ((err as { code?: string }).code === 'ENOENT') {
      process.stderr.write(`dataapi contract: --from-har ${o.fromHar}: no such file\n`);
      return 2;
    }
    throw err;
  }
}

/** Flags a comparison with the mock cannot take. */
const NOT_COMPARED = ['fuzz', 'seed', 'replay', 'from-har', 'shard', 'budget'];

export function compareFlags(
  values: Record<string, unknown>,
  usage: string,
): { compareMock?: true } {
  if (values['compare-mock'] !== true) return {};
  if (values['base-url'] === undefined)
    throw new UsageError(
      `--compare-mock compares a deployment with the mock: give --base-url URL\n\n${usage}`,
    );
  const clash = NOT_COMPARED.find((k) => values[k] !== undefined);
  if (clash) throw new UsageError(`--compare-mock takes no --${clash}\n\n${usage}`);
  return { compareMock: true };
}

export async function runCompareMock(o: RunOptions & { spec?: string }): Promise<number> {
  const root = path.resolve(o.root ?? process.cwd());
  try {
    const generatedDir =
      o.spec !== undefined ? (await suiteFor(o.spec)).generatedDir : path.join(root, 'generated');
    const { compareWithMock } = await import('../../contract-tests/drift/compare.ts');
    const { exitCode } = await compareWithMock({
      model: await loadModel(generatedDir),
      generatedDir,
      baseUrl: o.baseUrl!,
      appkey: o.appkey ?? '',
      timeoutMs: o.timeoutMs,
      allowWrites: o.allowWrites,
      ...(o.only ? { only: o.only } : {}),
      reportDir: o.reportDir ?? 'reports',
      root,
      out: process.stdout,
      ...(o.severity ? { severity: o.severity } : {}),
    });
    return exitCode;
  } catch (err) {
    if (err instanceof SpecInputError || err instanceof RunError) {
      process.stderr.write(`dataapi contract: ${err.message}\n`);
      return err instanceof RunError ? err.exitCode : 2;
    }
    throw err;
  }
}
