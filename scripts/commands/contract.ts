/** `dataapi contract`: run the generated contract suite against a deployment or the embedded mock. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from '../command.ts';
import { configuredSpec } from '../config/active.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { RunError, runContract, type RunOptions } from '../../contract-tests/runner.ts';
import { reporterError } from '../../contract-tests/reports/index.ts';
import { SpecInputError, suiteFor } from '../spec-suite.ts';
import { readReplayFile } from '../../contract-tests/fuzz/replay-file.ts';
import { compareFlags, harFlags, runCompareMock, runFromHar } from './contract-har.ts';
import { CHECKS, type CheckName } from '../../contract-tests/checks/definitions.ts';
import { didYouMean } from '../../model/suggest.ts';
import { checksOff, parseSeverity } from '../severity-flag.ts';
import { CONTRACT_FLAGS } from '../flags/contract.ts';
import { flagLines } from '../flags/usage.ts';

/** Words wrapped at 100 columns, continuation lines indented. */
function wrapped(text: string, indent: number): string {
  const lines: string[] = [''];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1]!;
    if (last && indent + last.length + 1 + word.length > 100) lines.push(word);
    else lines[lines.length - 1] = last ? `${last} ${word}` : word;
  }
  return lines.join(`\n${' '.repeat(indent)}`);
}

export const usage = `Usage: dataapi contract [--spec FILE] [--base-url URL] [--only id,...] [--reporter NAME,...]
                        [--checks NAME,...] [--exclude-checks NAME,...]
                        [--save-failures DIR] [--timeout ms] [--shard i/n] [--allow-writes] [--max-response-time ms]
                        [--budget N] [--report-dir DIR] [--results FILE] [--strict]
                        [--severity CODE=LEVEL,...] [--test-data FILE]
                        [--fuzz N [--seed S]]
       dataapi contract --replay FILE [--spec FILE] [--base-url URL] [--allow-writes]
       dataapi contract --from-har FILE [--replay-to URL [--allow-writes]] [--spec FILE]
                        [--reporter NAME,...] [--report-dir DIR]
       dataapi contract --base-url URL --compare-mock [--only id,...] [--allow-writes]

${flagLines(CONTRACT_FLAGS)}

Checks: ${wrapped(CHECKS.join(', '), 'Checks: '.length)}

Three kinds of finding: the target is wrong (a failure: exit 1); the description is wrong or
silent (an example that does not match its schema, a status a probe received that the operation
does not declare, a body where the response declares no content, a schema no value satisfies: a
warning with its JSON pointer, in every report; exit 0 unless --strict); or the suite lacked what
it needed: not tested, with the reason (no-credentials: a secured operation without
DATAAPI_APPKEY; missing-test-data: a 404 on an identifier the suite made up because no operation
creates the resource; writes-not-allowed; toolkit-fault: a request the suite built wrong, found by
checking it once more against the description as it was sent). Not tested is never a failure.

The key comes from DATAAPI_APPKEY and never appears in any output. Requests stay under each
operation's declared rate limit; a 429 is retried after Retry-After.
Exit codes: 0 every check passed, 1 a check failed or the target cannot be reached,
2 bad input (flags, --spec).`;

/** A number flag's value (its kind is checked where the flags are parsed: scripts/flags/values.ts). */
const numberOf = (v: string | undefined): number | undefined =>
  v === undefined ? undefined : Number(v);

export function parseContractFlags(argv: string[]): RunOptions & {
  spec?: string;
  replay?: string;
  fromHar?: string;
  replayTo?: string;
  compareMock?: boolean;
} {
  const { values } = parseFlags(
    argv,
    CONTRACT_FLAGS,
    usage,
    // `contract getAirQuality` must not quietly run everything.
    { max: 0, hint: (word) => ` (to test only some operations: --only ${word})` },
  );
  const shard = values.shard;
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(
        `--shard must be i/n with 1 <= i <= n, got ${JSON.stringify(shard)}\n\n${usage}`,
      );
  }
  const maxRt = numberOf(values['max-response-time']);
  const fuzz = numberOf(values.fuzz);
  const seed = numberOf(values.seed);
  if (seed !== undefined && fuzz === undefined)
    throw new UsageError(`--seed is the seed of --fuzz: give --fuzz N too\n\n${usage}`);
  const replay = values.replay;
  const clash = (['fuzz', 'seed', 'only', 'shard', 'budget'] as const).find(
    (k) => values[k] !== undefined,
  );
  if (replay !== undefined && clash)
    throw new UsageError(`--replay sends one recorded request: it takes no --${clash}\n\n${usage}`);
  const har = { ...harFlags(values, usage), ...compareFlags(values, usage) };
  const budget = numberOf(values.budget);
  const reporters = values.reporter.flatMap((r) =>
    r
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  const badReporter = reporterError(reporters);
  if (badReporter) throw new UsageError(`--reporter: ${badReporter}\n\n${usage}`);
  const severity = parseSeverity(values.severity);
  const off = checksOff(severity, CHECKS);
  const checks = chosenChecks(
    values.checks,
    [values['exclude-checks'], ...off].filter((x) => x !== undefined).join(',') || undefined,
  );
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^/?#]/i.test(baseUrl))
    throw new UsageError(
      `--base-url must be an http:// or https:// URL, got ${JSON.stringify(baseUrl.replace(/[?#].*$/, '?…'))}\n\n${usage}`,
    );
  return {
    generatedDir: values.dir,
    ...(values.spec !== undefined ? { spec: values.spec } : {}),
    ...(values.strict ? { strict: true } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(values.only !== undefined
      ? {
          only: values.only
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
        }
      : {}),
    ...(reporters.length ? { reporters } : {}),
    timeoutMs: Number(values.timeout),
    ...(shard !== undefined ? { shard } : {}),
    allowWrites: values['allow-writes'],
    ...(maxRt !== undefined ? { maxResponseTimeMs: maxRt } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(values.results !== undefined ? { resultsFile: values.results } : {}),
    ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] } : {}),
    ...(process.env.DATAAPI_APPKEY ? { appkey: process.env.DATAAPI_APPKEY } : {}),
    ...(fuzz !== undefined ? { fuzz } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(replay !== undefined ? { replay } : {}),
    ...(checks ? { checks } : {}),
    ...(severity ? { severity } : {}),
    ...(values['test-data'] !== undefined ? { testData: values['test-data'] } : {}),
    ...(values['save-failures'] !== undefined ? { saveFailures: values['save-failures'] } : {}),
    ...har,
  };
}

/** Check names of --checks / --exclude-checks, each known (else exit 2 with the closest name). */
function checkNames(flag: string, v: unknown): CheckName[] | undefined {
  if (v === undefined) return undefined;
  const names = String(v)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const name of names)
    if (!(CHECKS as readonly string[]).includes(name))
      throw new UsageError(
        `--${flag}: unknown check ${JSON.stringify(name)}${didYouMean(name, CHECKS)}. Known: ${CHECKS.join(', ')}`,
      );
  if (names.length === 0) throw new UsageError(`--${flag} needs at least one check name`);
  return names as CheckName[];
}

/** The checks a run keeps, in registry order; undefined for all of them. */
function chosenChecks(only: unknown, excluded: unknown): CheckName[] | undefined {
  const keep = checkNames('checks', only);
  const drop = checkNames('exclude-checks', excluded);
  if (!keep && !drop) return undefined;
  const chosen = CHECKS.filter((c) => (!keep || keep.includes(c)) && !drop?.includes(c));
  if (chosen.length === 0)
    throw new UsageError('--checks and --exclude-checks leave no check to run');
  return chosen;
}

/** No generated tree: the configuration file's description, when it names one. */
function fallbackSpec(dir: string): string | undefined {
  return existsSync(path.join(dir, 'model.json')) ? undefined : configuredSpec();
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const {
        spec: given,
        replay,
        fromHar,
        replayTo,
        compareMock,
        ...rest
      } = parseContractFlags(argv);
      // Where the SARIF report locates its results: the description the suite was made from.
      const options: RunOptions = {
        ...rest,
        descriptionFile: given ?? configuredSpec() ?? 'spec/openapi.yaml',
      };
      if (compareMock) return runCompareMock({ ...options, ...(given ? { spec: given } : {}) });
      if (fromHar !== undefined)
        return runFromHar({
          ...options,
          fromHar,
          ...(given ? { spec: given } : {}),
          ...(replayTo ? { replayTo } : {}),
        });
      try {
        const file = replay !== undefined ? await readReplayFile(replay) : undefined;
        if (typeof file === 'string') throw new UsageError(file);
        // A replay names the description it was written for; --spec overrides it.
        const spec = given ?? file?.spec ?? fallbackSpec(options.generatedDir!);
        if (spec !== undefined) {
          const suite = await suiteFor(spec);
          options.generatedDir = suite.generatedDir;
          options.spec = spec;
        }
        if (file && replay !== undefined) {
          // Loaded for --replay only: it judges in this process (the judges, XML, the sampler).
          const { replayContract } = await import('../../contract-tests/replay.ts');
          return await replayContract({ ...options, fileName: replay, file });
        }
        return (await runContract(options)).exitCode;
      } catch (err) {
        if (err instanceof SpecInputError) {
          process.stderr.write(`dataapi contract: ${err.message}\n`);
          return 2;
        }
        if (err instanceof RunError) {
          process.stderr.write(`dataapi contract: ${err.message}\n`);
          return err.exitCode;
        }
        throw err;
      }
    }),
};
