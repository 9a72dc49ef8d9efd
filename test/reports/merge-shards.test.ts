/**
 * `dataapi report merge` on a CI matrix's shards: the project's description run whole against
 * the embedded mock, and again as four shards (`--shard 1/4` .. `4/4`, each into its own report
 * folder), all through the built `dataapi`. The four merged give the same checks, verdicts,
 * requests, warnings and coverage as the whole run; bad inputs are refused with exit 2.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEY, reportDir, runCli, type CliRun } from '../contract/harness.ts';
import { sarifProblems } from '../lifecycle/sarif-check.ts';
import { findingsOf, readReport, reportMerge } from './merge-findings.ts';
import { model } from '../../generated/model.ts';

const work = reportDir('merge-shards');
const shardDirs = [1, 2, 3, 4].map((i) => path.join(work, `shard-${i}`));
let whole: CliRun;
let shards: CliRun[];

beforeAll(async () => {
  whole = await runCli('contract', [], 'merge-whole', {}, { reportDir: path.join(work, 'whole') });
  // Four machines of a CI matrix, at once.
  shards = await Promise.all(
    shardDirs.map((dir, i) =>
      runCli('contract', ['--shard', `${i + 1}/4`], `merge-shard-${i + 1}`, {}, { reportDir: dir }),
    ),
  );
});

describe('dataapi report merge: four shards of a contract run', () => {
  it('the shards split the operations between them', () => {
    expect(whole.code, whole.stderr).toBe(0);
    expect(shards.map((s) => s.code)).toEqual([0, 0, 0, 0]);
    const ops = shards.map((s) => new Set(s.result!.results.map((r) => r.operation)));
    expect(ops.every((o) => o.size > 0)).toBe(true);
    expect(ops.reduce((n, o) => n + o.size, 0)).toBe(
      new Set(whole.result!.results.map((r) => r.operation)).size,
    );
  });

  it('merged, they found what the whole run found, with its coverage and counts', async () => {
    const out = path.join(work, 'merged');
    const r = await reportMerge([...shardDirs, '--report-dir', out], { DATAAPI_APPKEY: KEY });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dataapi report merge: 4 runs merged');
    const merged = await readReport(out);
    const alone = await readReport(path.join(work, 'whole'));
    expect(findingsOf(merged)).toEqual(findingsOf(alone));
    // Not four shards' scope: the whole description's, nothing left "not in this run".
    expect(merged.options.shard).toBeUndefined();
    expect(merged.coverageReport.operations.notInRun).toEqual([]);
    expect(alone.description).toEqual({
      title: 'Data and AI API Service',
      version: '3.1',
      hash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(merged.description).toEqual(alone.description);
    // Each shard's own time, added up.
    expect(merged.durationMs).toBe(shards.reduce((n, s) => n + s.result!.durationMs, 0));
    // Every operation of the description (scaffold may have added one): counted, not pinned.
    const ops = model.operations.length;
    expect(r.stdout).toMatch(
      new RegExp(`^Checks: \\d+ passed, 0 failed, \\d+ skipped \\(${ops} operations`, 'm'),
    );
    // Every reporter's file, the SARIF one valid; the key in none of them nor in the output.
    const files = ['contract-junit.xml', 'contract-report.html', 'contract-results.sarif'];
    const texts = await Promise.all(files.map((f) => readFile(path.join(out, f), 'utf8')));
    expect(sarifProblems(texts[2]!)).toEqual([]);
    for (const text of [...texts, JSON.stringify(merged), r.stdout])
      expect(text).not.toContain(KEY);
  });

  it('two shards are two shards: coverage scoped to what they ran', async () => {
    const out = path.join(work, 'half');
    const r = await reportMerge([shardDirs[0]!, shardDirs[2]!, '--report-dir', out]);
    expect(r.code).toBe(0);
    const half = await readReport(out);
    expect(half.options.shard).toBe('1/4,3/4');
    const ran = [shards[0]!, shards[2]!].flatMap((s) => s.result!.results.map((x) => x.operation));
    expect(half.coverageReport.operations.covered.sort()).toEqual([...new Set(ran)].sort());
  });

  it("takes its report folder from the configuration file's report section", async () => {
    const config = path.join(work, 'config');
    await mkdir(config, { recursive: true });
    await writeFile(
      path.join(config, 'dataapi.config.json'),
      JSON.stringify({ report: { reportDir: 'merged', reporter: ['json'] } }),
    );
    const r = await reportMerge([
      ...shardDirs,
      '--config',
      path.join(config, 'dataapi.config.json'),
    ]);
    expect(r.code).toBe(0);
    // Read from the file's folder; only the JSON report, so no console matrix.
    expect((await readReport(path.join(config, 'merged'))).summary.failed).toBe(0);
    expect(r.stdout).not.toContain('operation   ');
  });

  it('refuses a folder without results, the same shard twice, another description, another version', async () => {
    const empty = path.join(work, 'empty');
    await mkdir(empty, { recursive: true });
    const none = await reportMerge([shardDirs[0]!, empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      `dataapi report merge: ${empty}: no contract-results.json in it (the report folder of a \`dataapi contract\` or \`dataapi proxy\` run holds one)\n`,
    );

    const twice = await reportMerge([shardDirs[1]!, shardDirs[1]!]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('shard 2/4 twice');

    // Shard 2's results as if another description (or an edited one) had been tested.
    const original = JSON.parse(
      await readFile(path.join(shardDirs[1]!, 'contract-results.json'), 'utf8'),
    ) as {
      description: { title: string; hash: string };
      version: number;
      options: Record<string, unknown>;
    };
    const other = path.join(work, 'other');
    await mkdir(other, { recursive: true });
    await writeFile(
      path.join(other, 'contract-results.json'),
      JSON.stringify({
        ...original,
        description: { ...original.description, hash: '0123456789abcdef' },
      }),
    );
    const mixed = await reportMerge([shardDirs[0]!, other]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(
      /^dataapi report merge: results of different descriptions: .*shard-1 is of "Data and AI API Service" 3\.1 \([0-9a-f]{16}\), .*other of "Data and AI API Service" 3\.1 \(0123456789abcdef\)\n$/,
    );
    // Alone, it is still not the description whose model the reports would be measured against.
    const alone = await reportMerge([other]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('give the description the runs tested with --spec FILE');

    // Shard 2 of another split (say, a re-run with three machines).
    const split = path.join(work, 'split');
    await mkdir(split, { recursive: true });
    await writeFile(
      path.join(split, 'contract-results.json'),
      JSON.stringify({ ...original, options: { ...original.options, shard: '2/3' } }),
    );
    const splits = await reportMerge([shardDirs[0]!, split]);
    expect(splits.code).toBe(2);
    expect(splits.stderr).toMatch(
      /shards of different splits: 1\/4 \(.*shard-1\) and 2\/3 \(.*split\)/,
    );

    const newer = path.join(work, 'newer');
    await mkdir(newer, { recursive: true });
    await writeFile(
      path.join(newer, 'contract-results.json'),
      JSON.stringify({ ...original, version: 2 }),
    );
    const v2 = await reportMerge([shardDirs[0]!, newer]);
    expect(v2.code).toBe(2);
    expect(v2.stderr).toContain('results version 2; this dataapi reads version 1');
  });
});
