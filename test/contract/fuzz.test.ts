/**
 * `dataapi contract --fuzz N [--seed S]` against a real server with planted bugs
 * (planted-server.ts, test/fixtures/fuzz/planted.yaml): the fixed suite misses every bug, --fuzz 30
 * (seed 42) finds each and shrinks it to its minimal request (a comma in a name, a note over 40
 * characters, the inclusive maximum 750, the unit kelvin), with a replay file that still fails
 * against the buggy server and passes against a fixed one; the same seed sends the same requests
 * byte for byte; --only, --shard, --budget and --allow-writes hold.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, FuzzFinding } from '../../contract-tests/results.ts';
import { ROOT, failedOf, reportDir, runCli, type CliRun } from './harness.ts';
import { PLANTED_KEY, startPlantedServer, type Recorded } from './planted-server.ts';
import { parseContractFlags } from '../../scripts/commands/contract.ts';
import { UsageError } from '../../scripts/args.ts';

const SPEC = 'test/fixtures/fuzz/planted.yaml';
const ENV = { DATAAPI_APPKEY: PLANTED_KEY };
type Server = Awaited<ReturnType<typeof startPlantedServer>>;

/** One report folder per run name (the replay line names it). */
const reportDirs = new Map<string, string>();

const runOn = (server: Server, name: string, env: Record<string, string>, args: string[]) =>
  runCli(
    'contract',
    [
      '--spec',
      SPEC,
      '--base-url',
      server.url,
      '--report-dir',
      reportDirs.get(name) ?? reportDirs.set(name, reportDir(name)).get(name)!,
      ...args,
    ],
    name,
    env,
  );
/** A run on the harness's one vitest worker (what these runs prove does not depend on files at once). */
const contract = (server: Server, name: string, ...args: string[]) =>
  runOn(server, name, ENV, args);
/** Two workers: the seeded runs prove the same requests with files in parallel. */
const parallel = (server: Server, name: string, ...args: string[]) =>
  runOn(server, name, { ...ENV, VITEST_MAX_WORKERS: '2' }, args);

/** The finding of an operation's failed check. */
function finding(run: CliRun, operation: string, check = 'server-errors'): FuzzFinding {
  const r = run.result?.results.find(
    (x: CheckResult) => x.operation === operation && x.check === check && x.status === 'failed',
  );
  expect(r?.fuzz, `${operation} ${check}: ${run.stdout.slice(-2000)}`).toBeDefined();
  return r!.fuzz!;
}

describe('planted bugs', () => {
  let buggy: Server;
  let fixed: Server;
  let fuzzed: CliRun;
  let fixedSuite: CliRun;
  /** Requests two runs with seed 7 and one with seed 8 sent, each to a server of its own. */
  const seeded: Recorded[][] = [];
  const closers: (() => Promise<void>)[] = [];
  // The runs are independent: they go in parallel (each waits on its own server).
  beforeAll(async () => {
    buggy = await startPlantedServer();
    fixed = await startPlantedServer({ bugs: false });
    closers.push(buggy.close, fixed.close);
    const seedRun = async (name: string, ...args: string[]) => {
      const server = await startPlantedServer({ bugs: false });
      closers.push(server.close);
      const done = await parallel(server, name, '--allow-writes', '--fuzz', '10', ...args);
      expect(done.code, done.stdout.slice(-2000) + done.stderr.slice(-2000)).toBe(0);
      return server.requests;
    };
    [fuzzed, fixedSuite, seeded[0], seeded[1], seeded[2]] = await Promise.all([
      // 30 runs an operation find every bug with this seed (100 found the same, at 40% more CPU).
      contract(buggy, 'fuzz-planted', '--allow-writes', '--fuzz', '30', '--seed', '42'),
      contract(
        buggy,
        'fuzz-planted-fixed-suite',
        '--allow-writes',
        '--only',
        'searchPeople,createNote,getNote,getScore,getForecast',
      ),
      seedRun('fuzz-seed-7a', '--seed', '7'),
      seedRun('fuzz-seed-7b', '--seed', '7'),
      seedRun('fuzz-seed-8', '--seed', '8', '--only', 'getScore'),
    ]);
  }, 300_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('the fixed suite misses every planted bug, and follows the link from a new note', () => {
    const run = fixedSuite;
    expect(failedOf(run), run.stdout.slice(-2000)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.result!.summary.passed).toBeGreaterThan(20);
    const lifecycle = run.result!.results.find(
      (r) => r.operation === 'createNote' && r.check === 'lifecycle',
    )!;
    expect(lifecycle.status).toBe('passed');
    expect(lifecycle.exchanges.map((e) => e.request.purpose)).toContain('link GetNote -> getNote');
    // getNote's valid request asks for the note the link's source created: found, not a 404.
    expect(run.result!.coverage.statuses['getNote']).toContain(200);
  });

  it('--fuzz 30 finds each bug and shrinks it to its minimal request', () => {
    expect(fuzzed.code, fuzzed.stderr).toBe(1);
    expect(failedOf(fuzzed).sort()).toEqual([
      'createNote server-errors main',
      'createNote status main',
      'getForecast server-errors main',
      'getForecast status main',
      'getScore server-errors main',
      'getScore status main',
      'searchPeople server-errors main',
      'searchPeople status main',
    ]);
    const people = finding(fuzzed, 'searchPeople');
    expect(people.request).toMatchObject({ path: {}, query: { name: ',' }, header: {} });
    expect(people.request.body).toBeUndefined();
    const note = finding(fuzzed, 'createNote').request.body as Record<string, unknown>;
    expect(note).toEqual({ text: 'a'.repeat(41) });
    expect(finding(fuzzed, 'getScore').request.query).toEqual({ value: 750 });
    expect(finding(fuzzed, 'getForecast').request.query).toEqual({ unit: 'kelvin' });
    for (const op of ['searchPeople', 'createNote', 'getScore', 'getForecast']) {
      const f = finding(fuzzed, op);
      expect(f).toMatchObject({ seed: 42, runs: 30, kind: 'valid', operation: op });
      expect(f.replay!.seedCommand).toBe(
        `dataapi contract --spec ${SPEC} --base-url ${buggy.url} --allow-writes --fuzz 30 --seed 42 --only ${op}`,
      );
      expect(f.curl).toContain('"$DATAAPI_APPKEY"');
    }
    // The minimal request is the one the check reports, on the wire as curl sends it.
    const score = fuzzed.result!.results.find(
      (r) => r.operation === 'getScore' && r.check === 'status',
    )!;
    expect(score.request).toEqual({ method: 'GET', url: `${buggy.url}/scores?value=750` });
    expect(finding(fuzzed, 'getScore').curl).toBe(
      `curl -sS -X GET '${buggy.url}/scores?value=750' -H 'X-API-Key: '"$DATAAPI_APPKEY"`,
    );
    expect(fuzzed.stdout).toContain(
      `replay:   dataapi contract --replay ${path.relative(ROOT, reportDirs.get('fuzz-planted')!)}/fuzz/get-score-valid-`,
    );
    expect(fuzzed.stdout + JSON.stringify(fuzzed.result)).not.toContain(PLANTED_KEY);
  });

  it('counts enum values, presence and boundary values in the coverage', () => {
    const ops = fuzzed.result!.fuzz!.operations;
    expect(ops['getForecast']!.coverage.enums['query.unit']!.sent).toEqual([
      'celsius',
      'fahrenheit',
      'kelvin',
    ]);
    expect(ops['searchPeople']!.coverage.presence['query.sort']).toMatchObject({ required: false });
    expect(ops['searchPeople']!.coverage.presence['query.sort']!.absent).toBeGreaterThan(0);
    expect(ops['getScore']!.coverage.boundaries['query.value']!.hit).toEqual([
      '= 0 (lowest valid)',
      '= 750 (highest valid)',
      '= -1 (below minimum)',
      '= 751 (above maximum)',
    ]);
    expect(ops['createNote']!.runs.link).toBeGreaterThan(0); // GetNote followed
    expect(fuzzed.stdout).toMatch(/Fuzz coverage: enum values \d+\/\d+/);
  });

  it('replays a finding: still failing against the buggy server, passing once fixed', async () => {
    const file = finding(fuzzed, 'searchPeople').replay!.file!;
    const saved = JSON.parse(await readFile(path.join(ROOT, file), 'utf8'));
    expect(saved.finding.request.query).toEqual({ name: ',' });
    expect(JSON.stringify(saved)).not.toContain(PLANTED_KEY);
    const again = await runCli('contract', ['--replay', file], 'fuzz-replay', ENV);
    expect(again.stdout).toContain(`GET ${buggy.url}/people?name=%2C`);
    expect(again.stdout).toContain('It still fails');
    expect(again.code).toBe(1);
    const now = await runCli(
      'contract',
      ['--replay', file, '--base-url', fixed.url],
      'fuzz-replay-fixed',
      ENV,
    );
    expect(now.stdout).toContain('It passes now');
    expect(now.code).toBe(0);
  });

  it('sends the same requests byte for byte for a seed, others for another seed', () => {
    const [first, second, other] = seeded as [Recorded[], Recorded[], Recorded[]];
    const text = (list: Recorded[]) =>
      list.map((r) => `${r.line}\n${r.headers.replace(/^host: .*$/m, '')}\n\n${r.body}`);
    expect(first.length).toBeGreaterThan(5 * 20);
    expect(text(second).sort()).toEqual(text(first).sort());
    // Operations run in parallel; each one's own requests come in the same order.
    const only = (list: Recorded[], prefix: string) =>
      text(list).filter((r) => r.startsWith(prefix));
    for (const prefix of ['GET /people', 'GET /scores', 'GET /forecast'])
      expect(only(second, prefix)).toEqual(only(first, prefix));
    expect(only(other, 'GET /scores')).not.toEqual(only(first, 'GET /scores'));
  });
});

describe('fuzzing against a deployment', () => {
  const servers: Server[] = [];
  const runs: Record<string, CliRun> = {};
  beforeAll(async () => {
    const start = async (name: string, ...args: string[]) => {
      const server = await startPlantedServer({ bugs: false });
      servers.push(server);
      runs[name] = await contract(server, name, ...args);
      return server;
    };
    const [, budget] = await Promise.all([
      start('fuzz-no-seed', '--fuzz', '3', '--only', 'getScore'),
      start('fuzz-budget', '--fuzz', '50', '--seed', '1', '--budget', '60'),
      start('fuzz-shard', '--fuzz', '2', '--seed', '1', '--shard', '1/2'),
    ]);
    budgetRequests = budget.requests;
  });
  let budgetRequests: Recorded[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('chooses and prints a seed when none is given', () => {
    const run = runs['fuzz-no-seed']!;
    const seed = run.result!.options.seed!;
    expect(run.stdout).toContain(`fuzzing with --seed ${seed}:`);
    expect(run.result!.fuzz).toMatchObject({ seed, runs: 3, seedChosen: true });
    expect(run.code).toBe(0);
  });

  it('sends no write without --allow-writes and keeps to --budget', () => {
    const run = runs['fuzz-budget']!;
    expect(budgetRequests.filter((r) => r.line.split('?')[0] === 'POST /notes')).toEqual([]);
    expect(budgetRequests.length).toBeLessThanOrEqual(60);
    expect(run.result!.budgetExhausted).toBe(true);
    expect(Object.values(run.result!.fuzz!.operations).some((s) => s.stopped)).toBe(true);
    expect(run.code).toBe(0);
  });

  it('combines with --shard: the operations of the shard, and only those, are fuzzed', () => {
    const shard = runs['fuzz-shard']!;
    const fuzzedOps = Object.keys(shard.result!.fuzz!.operations);
    const ran = [...new Set(shard.result!.results.map((r) => r.operation))];
    expect(fuzzedOps.length).toBeGreaterThan(0);
    expect(ran.length).toBeLessThan(5);
    expect(ran).toEqual(expect.arrayContaining(fuzzedOps));
  });
});

describe('flags', () => {
  const refused = (argv: string[]) => {
    try {
      parseContractFlags(argv);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message.split('\n')[0];
    }
    return 'accepted';
  };

  it('refuses bad --fuzz, --seed and --replay combinations with a clear message', () => {
    expect(refused(['--fuzz', '0'])).toBe(
      '--fuzz must be a whole number from 1 to 100000, got "0"',
    );
    expect(refused(['--fuzz', '1e3'])).toBe(
      '--fuzz must be a whole number from 1 to 100000, got "1e3"',
    );
    expect(refused(['--seed', '5'])).toBe('--seed is the seed of --fuzz: give --fuzz N too');
    expect(refused(['--fuzz', '5', '--seed', '-1'])).toMatch(
      /^--seed must be a whole number from 0 to 4294967295/,
    );
    expect(refused(['--fuzz', '5', '--seed', '4294967296'])).toMatch(/^--seed must be/);
    expect(refused(['--replay', 'f.json', '--only', 'getScore'])).toBe(
      '--replay sends one recorded request: it takes no --only',
    );
    expect(refused(['--fuz', '5'])).toBe('unknown option --fuz (did you mean "--fuzz"?)');
    expect(parseContractFlags(['--fuzz', '7', '--seed', '0'])).toMatchObject({ fuzz: 7, seed: 0 });
  });

  it('--replay of a file that is not there, or not a replay: exit 2, nothing run', async () => {
    const missing = await runCli(
      'contract',
      ['--replay', 'no/such/replay.json'],
      'fuzz-replay-bad',
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--replay no/such/replay.json: no such file');
    const wrong = await runCli('contract', ['--replay', 'package.json'], 'fuzz-replay-wrong');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('not a replay file of dataapi contract --fuzz');
  });
});
