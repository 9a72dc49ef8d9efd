/**
 * The CI workflow `dataapi init --ci` writes (through the built command line, in a folder of its
 * own): lint and the drift check, the contract suite split over a matrix of shards that each
 * upload their report folder, and a job that downloads them and merges them with
 * `dataapi report merge`. Every `dataapi` line uses only a command and flags its --help documents.
 */
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { removeAfterFile } from '../cleanup.ts';
import { ROOT, run, tempDir } from '../pack/helpers.ts';

type Step = {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
};
type Job = {
  needs?: string | string[];
  if?: string;
  strategy?: { 'fail-fast'?: boolean; matrix: { shard: number[] } };
  steps: Step[];
};

let doc: ReturnType<typeof parseDocument>;
let jobs: Record<string, Job>;

beforeAll(async () => {
  const dir = removeAfterFile(await tempDir('init-ci'));
  await copyFile(
    path.join(ROOT, 'test/fixtures/third-party/museum.yaml'),
    path.join(dir, 'openapi.yaml'),
  );
  const r = await run(
    process.execPath,
    [path.join(ROOT, 'bin/dataapi.js'), 'init', '--format', 'json', '--ci'],
    dir,
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('wrote .github/workflows/dataapi.yml');
  doc = parseDocument(await readFile(path.join(dir, '.github/workflows/dataapi.yml'), 'utf8'));
  jobs = (doc.toJS() as { jobs: Record<string, Job> }).jobs;
});

const runs = (job: Job) => job.steps.map((s) => s.run ?? '').filter(Boolean);
const step = (job: Job, uses: string) => job.steps.find((s) => s.uses?.startsWith(uses))!;

describe('dataapi init --ci', () => {
  it('writes valid YAML that lints the description and checks for drift', () => {
    expect(doc.errors).toEqual([]);
    expect(runs(jobs['check']!)).toEqual([
      'npm ci',
      'npx dataapi lint',
      'npx dataapi generate --check',
    ]);
  });

  it('runs the contract suite as a matrix of shards, each uploading its report folder', () => {
    const contract = jobs['contract']!;
    expect(contract.strategy!.matrix.shard).toEqual([1, 2, 3, 4]);
    // A failing shard does not cancel the others: the merged report needs them all.
    expect(contract.strategy!['fail-fast']).toBe(false);
    const suite = contract.steps.find((s) => s.run?.includes('dataapi contract'))!;
    expect(suite.run).toBe(
      'npx dataapi contract --shard "$SHARD/4" --report-dir "reports/shard-$SHARD"',
    );
    // The matrix value reaches the script through the environment.
    expect(suite.env).toEqual({ SHARD: '${{ matrix.shard }}' });
    const upload = step(contract, 'actions/upload-artifact@');
    expect(upload.if).toBe('${{ !cancelled() }}');
    expect(upload.with).toMatchObject({
      name: 'shard-${{ matrix.shard }}',
      path: 'reports/shard-${{ matrix.shard }}/',
    });
  });

  it('merges the shards in a job after them, which downloads them where the merge reads them', () => {
    const report = jobs['report']!;
    expect(report.needs).toBe('contract');
    // Also after a failed shard: the merged reports say what failed.
    expect(report.if).toBe('${{ !cancelled() }}');
    const download = step(report, 'actions/download-artifact@');
    // Each artifact in a folder of its name under `path` (no merge-multiple).
    expect(download.with).toEqual({ pattern: 'shard-*', path: 'reports' });
    const merge = report.steps.find((s) => s.run?.includes('dataapi report merge'))!;
    expect(merge.run).toBe('npx dataapi report merge reports/shard-* --report-dir reports/merged');
    // The folders the shards wrote, uploaded and downloaded are the ones the merge's glob names.
    const glob = new RegExp(`^${merge.run!.split(' ')[4]!.replace('*', '\\d+')}$`);
    for (const shard of jobs['contract']!.strategy!.matrix.shard) {
      expect(`${download.with!['path']}/shard-${shard}`).toMatch(glob);
      expect(`reports/shard-${shard}`).toMatch(glob);
    }
    expect(step(report, 'actions/upload-artifact@').with).toMatchObject({
      path: 'reports/merged/',
    });
  });

  it('uses only commands and flags their --help documents', async () => {
    const problems: string[] = [];
    for (const line of Object.values(jobs).flatMap(runs)) {
      const m = /^npx dataapi (\S+)(.*)$/.exec(line);
      if (!m) continue;
      const { command } = (await import(`../../scripts/commands/${m[1]}.ts`)) as {
        command: { usage: string };
      };
      for (const flag of m[2]!.split(/\s+/).filter((a) => a.startsWith('--')))
        if (!new RegExp(`(^|[\\s\\[|])${flag}\\b`, 'm').test(command.usage))
          problems.push(`dataapi ${m[1]} ${flag}`);
    }
    expect(problems).toEqual([]);
  });
});
