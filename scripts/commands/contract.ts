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

  --spec FILE               test against this OpenAPI description: its own suite and mock are
                            generated into node_modules/.cache/dataapi/ (generated/ is left alone)
                            default: the project's generated/ suite (--dir), else the
                            configuration file's spec
  --dir DIR                 the generated tree whose suite runs    default: generated
  --base-url URL            the deployment to test; without it the embedded mock is started
                            in-process on an ephemeral port and tested
  --only ID,...             only these operations (operation ids)
  --checks NAME,...         only these checks, by name (the names are listed below)
  --exclude-checks NAME,... every check but these (with --checks: those less these)
  --save-failures DIR       write each failure (a fixed request, or a fuzzing failure shrunk to
                            its minimal request) to DIR as a vitest test that sends the same
                            request with fetch and judges the answer with the same check
                            (<operation>.<check>.test.ts, and the model.json they read): ready to
                            commit as a regression test. The key is never written: the test reads
                            DATAAPI_APPKEY; the target is DATAAPI_BASE_URL, by default this run's
                            --base-url (or the mock's default http://127.0.0.1:4010)
  --reporter NAME,...       console (default): progress, then the operations-by-checks matrix,
                            failures and coverage; junit, json, html, sarif: report files in
                            --report-dir (contract-junit.xml, contract-results.json,
                            contract-report.html, contract-results.sarif for code scanning);
                            any of vitest's reporters (dot, verbose, tap, github-actions, ...;
                            vitest-junit, vitest-json for vitest's own files)
  --test-data FILE          values the valid requests send instead of the description's
                            examples or schema samples, per operation id (JSON or YAML):
                            {"createZone": {"path": {...}, "query": {...}, "body": {...}}};
                            checked against the description first (exit 2 when it refuses them)
  --report-dir DIR          where report files go                  default: reports
  --timeout MS              per-request timeout: a later response fails    default: 10000
  --shard I/N               run part I of N (vitest sharding, for CI machines)
  --allow-writes            also send operations that write (uploads, extraction submits);
                            always on against the embedded mock
  --max-response-time MS    fail responses slower than this
  --budget N                send at most N requests in total (later checks are skipped)
  --results FILE            the JSON report, written by every run
                                                     default: <report-dir>/contract-results.json
  --strict                  description warnings fail the run too
  --severity CODE=LEVEL,... a check or a warning code at another severity for this run: failure,
                            warning or off (method-path=warning: its violations are listed as
                            warnings; undeclared-content=failure; a check set to off does not
                            run). Codes and their usual severities: docs/diagnostics.md
  --fuzz N                  property-based testing: per operation, N valid requests generated
                            from the schemas (patterns, formats, enums, bounds and boundary
                            values, lengths, optional fields present and absent, Unicode) and N
                            invalid ones (one violation each), every answer judged by the checks;
                            links of successful answers are followed. A failure is shrunk to a
                            minimal request and reported with its seed, a replay file and a curl
                            line. Pacing, --budget and --allow-writes hold; combines with --only
                            and --shard
  --seed S                  the fuzzing seed (0..4294967295): the same seed sends the same
                            requests byte for byte. Default: one is chosen and printed
  --replay FILE             send the minimal request of one fuzzing failure again (a file the
                            run wrote under <report-dir>/fuzz/) and judge it: exit 1 while it
                            still fails, 0 once it passes
  --from-har FILE           judge the exchanges a HAR file recorded (\`dataapi proxy --record\`, a
                            browser, another proxy) with the proxy's checks: offline, nothing is
                            sent. Reports as for a run; exit 1 when an exchange fails a check
  --replay-to URL           with --from-har: send the recorded requests to this deployment again
                            and judge its answers (the key from DATAAPI_APPKEY replaces a
                            redacted one); requests that write only with --allow-writes
  --compare-mock            with --base-url: send each request of the suite to the deployment and
                            to the embedded mock, and report where they disagree (status,
                            business code, envelope, content type, the schema-valid fields
                            present) as drift, both answers side by side
                            (<report-dir>/contract-drift.json); exit 1 on any drift

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

function positiveInt(name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  // An integer written as such: no "1e3", "0x10" or " 5 ".
  const n = Number(v);
  if (!/^\d+$/.test(String(v)) || !Number.isInteger(n) || n <= 0)
    throw new UsageError(
      `--${name} must be a positive integer, got ${JSON.stringify(v)}\n\n${usage}`,
    );
  return n;
}

export function parseContractFlags(argv: string[]): RunOptions & {
  spec?: string;
  replay?: string;
  fromHar?: string;
  replayTo?: string;
  compareMock?: boolean;
} {
  const { values } = parseFlags(
    argv,
    {
      'base-url': { type: 'string' },
      only: { type: 'string' },
      reporter: { type: 'string', multiple: true },
      timeout: { type: 'string', default: '10000' },
      shard: { type: 'string' },
      'allow-writes': { type: 'boolean', default: false },
      'max-response-time': { type: 'string' },
      budget: { type: 'string' },
      results: { type: 'string' },
      'report-dir': { type: 'string' },
      spec: { type: 'string' },
      dir: { type: 'string', default: 'generated' },
      strict: { type: 'boolean', default: false },
      fuzz: { type: 'string' },
      seed: { type: 'string' },
      replay: { type: 'string' },
      'from-har': { type: 'string' },
      'replay-to': { type: 'string' },
      'compare-mock': { type: 'boolean', default: false },
      checks: { type: 'string' },
      'exclude-checks': { type: 'string' },
      'save-failures': { type: 'string' },
      'test-data': { type: 'string' },
      severity: { type: 'string', multiple: true },
    },
    usage,
    // `contract getAirQuality` must not quietly run everything.
    { max: 0, hint: (word) => ` (to test only some operations: --only ${word})` },
  );
  const shard = values.shard as string | undefined;
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(
        `--shard must be i/n with 1 <= i <= n, got ${JSON.stringify(shard)}\n\n${usage}`,
      );
  }
  const maxRt = positiveInt('max-response-time', values['max-response-time']);
  const fuzz = positiveInt('fuzz', values.fuzz);
  if (fuzz !== undefined && fuzz > MAX_FUZZ)
    throw new UsageError(`--fuzz must be at most ${MAX_FUZZ}, got ${fuzz}\n\n${usage}`);
  const seed = seedOf(values.seed);
  if (seed !== undefined && fuzz === undefined)
    throw new UsageError(`--seed is the seed of --fuzz: give --fuzz N too\n\n${usage}`);
  const replay = values.replay as string | undefined;
  const clash = (['fuzz', 'seed', 'only', 'shard', 'budget'] as const).find(
    (k) => values[k] !== undefined,
  );
  if (replay !== undefined && clash)
    throw new UsageError(`--replay sends one recorded request: it takes no --${clash}\n\n${usage}`);
  const har = { ...harFlags(values, usage), ...compareFlags(values, usage) };
  const budget = positiveInt('budget', values.budget);
  const reporters = ((values.reporter as string[] | undefined) ?? []).flatMap((r) =>
    r
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  const badReporter = reporterError(reporters);
  if (badReporter) throw new UsageError(`--reporter: ${badReporter}\n\n${usage}`);
  const severity = parseSeverity(values.severity as string[] | undefined);
  const off = checksOff(severity, CHECKS);
  const checks = chosenChecks(
    values.checks,
    [values['exclude-checks'], ...off].filter((x) => x !== undefined).join(',') || undefined,
  );
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/?#]/i.test(baseUrl))
    throw new UsageError(
      `--base-url must be an http:// or https:// URL, got ${JSON.stringify(baseUrl.replace(/[?#].*$/, '?…'))}\n\n${usage}`,
    );
  return {
    generatedDir: values.dir as string,
    ...(values.spec !== undefined ? { spec: values.spec as string } : {}),
    ...(values.strict === true ? { strict: true } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(values.only !== undefined
      ? {
          only: (values.only as string)
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
        }
      : {}),
    ...(reporters.length ? { reporters } : {}),
    timeoutMs: positiveInt('timeout', values.timeout)!,
    ...(shard !== undefined ? { shard } : {}),
    allowWrites: values['allow-writes'] === true,
    ...(maxRt !== undefined ? { maxResponseTimeMs: maxRt } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(values.results !== undefined ? { resultsFile: values.results as string } : {}),
    ...(values['report-dir'] !== undefined ? { reportDir: values['report-dir'] as string } : {}),
    ...(process.env.DATAAPI_APPKEY ? { appkey: process.env.DATAAPI_APPKEY } : {}),
    ...(fuzz !== undefined ? { fuzz } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(replay !== undefined ? { replay } : {}),
    ...(checks ? { checks } : {}),
    ...(severity ? { severity } : {}),
    ...(values['test-data'] !== undefined ? { testData: values['test-data'] as string } : {}),
    ...(values['save-failures'] !== undefined
      ? { saveFailures: values['save-failures'] as string }
      : {}),
    ...har,
  };
}

const MAX_FUZZ = 100_000;

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

/** --seed: an integer a 32-bit generator takes, written as such. */
function seedOf(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(String(v)) || n > 0xffffffff)
    throw new UsageError(
      `--seed must be an integer from 0 to 4294967295, got ${JSON.stringify(v)}\n\n${usage}`,
    );
  return n;
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
