/**
 * BENCHMARKS.md's header (issue 30): the commit and date of the run, the machine as measured, and
 * a stitched file (sections of several runs, `--only`) visible as such, with each section's commit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mergeSections,
  parseSections,
  renderReport,
  storeSection,
  type StoredSection,
} from '../../bench/report.ts';
import { gitState, type RunRecord } from '../../bench/lib/run-info.ts';
import type { Section } from '../../bench/lib/context.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ORDER = ['alpha', 'beta', 'gamma'];

const calibration = { hashCpuMs: 100, hashWallMs: 120, jsonCpuMs: 80, jsonWallMs: 90 };
const record = (commit: string, at: string, dirty: string[] = []): RunRecord => ({
  commit,
  dirty,
  at,
  seconds: 1234,
  method: 'median of 3 measured runs after 1 warm-up run',
  quick: false,
  cpus: '2 × Test CPU',
  memGiB: 8,
  node: 'v20.0.0',
  os: 'Linux test (x64)',
  load: { start: 3.1, end: 2.9, min: 2.5, median: 3, max: 4, count: 7 },
  calibration: { start: calibration, end: calibration },
});
const section = (id: string): Section => ({
  id,
  title: `Section ${id}`,
  body: `Body of ${id}.`,
  verdicts: [{ target: `${id} target`, measured: '1.00x', met: true }],
});
const OLD = record('1111111111aaaaaaaaaa', '2026-11-20T10:00:00.000Z');
const NEW = record('2222222222bbbbbbbbbb', '2026-11-26T03:00:00.000Z', ['bench/cli.ts']);
const render = (run: RunRecord, sections: StoredSection[], only?: string[]) =>
  renderReport({ root: ROOT, command: 'npm run bench', run, ...(only ? { only } : {}) }, sections);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dataapi-bench-report-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('BENCHMARKS.md header', () => {
  it('a whole run names its commit, date, duration and measured machine, and says nothing is stitched', () => {
    const text = render(
      NEW,
      ORDER.map((id) => storeSection(section(id), NEW, 42)),
    );
    expect(text).toContain(
      'at commit `2222222222` (**1 uncommitted change**), started 2026-11-26 03:00 UTC; the run took 20 min 34 s.',
    );
    expect(text).toContain('Uncommitted changes when it started: `bench/cli.ts`.');
    expect(text).toContain('Every section below was measured in this run, at this commit.');
    expect(text).not.toContain('Stitched');
    expect(text).toContain('- CPU: 2 × Test CPU');
    expect(text).toContain('lowest 2.50, median 3.00, highest 4.00');
    // The median load (3) is over the core count (2): said because it was measured, not assumed.
    expect(text).toContain('The median exceeds the number of cores (2)');
    expect(text).toContain('SHA-256 100 ms CPU (120 ms wall)');
    expect(text).toContain(
      '_Measured 2026-11-26 03:00 UTC at commit `2222222222` (**1 uncommitted change**), median of 3 measured runs after 1 warm-up run; this section took 42 s._',
    );
    expect(text).not.toMatch(/shared 2-core machine/);
  });

  it('an --only run merged into an older file says which sections come from which commit', async () => {
    const file = path.join(dir, 'BENCHMARKS.md');
    // The previous file: alpha and gamma from an older recorded run, beta from before runs were
    // recorded (a section with no measured comment).
    const legacy =
      '<!-- section:beta -->\n## Section beta\n\n_Measured 2026-11-01 09:00 UTC, median of 5 runs after 1 warm-up._\n\nOld.\n<!-- verdicts:[] -->\n<!-- /section:beta -->\n';
    const older = render(OLD, [
      storeSection(section('alpha'), OLD, 10),
      storeSection(section('gamma'), OLD, 10),
    ]);
    await writeFile(file, `${older}\n${legacy}`);
    const merged = await mergeSections(file, [storeSection(section('gamma'), NEW, 5)], ORDER);
    expect(merged.map((s) => [s.id, s.run?.commit])).toEqual([
      ['alpha', OLD.commit],
      ['beta', undefined],
      ['gamma', NEW.commit],
    ]);
    const text = render(NEW, merged, ['gamma']);
    expect(text).toContain(
      '**Stitched file**: this run measured only gamma; its 3 sections come from 3 runs at 3 commits',
    );
    expect(text).toMatch(/\| 2026-11-20 10:00 UTC \| `1111111111` \| clean \|.*\| alpha \|/);
    expect(text).toMatch(/\| 2026-11-26 03:00 UTC \| `2222222222` \| 1 change \|.*\| gamma \|/);
    expect(text).toMatch(/\| before runs were recorded .*\| \*\*not recorded\*\* .*\| beta \|/);
    expect(text).toMatch(/\| alpha target \| 1\.00x \| met \| 1111111111 \|/);
    expect(text).toMatch(/\| gamma target \| 1\.00x \| met \| 2222222222 \|/);
  });

  it("a stored section's run record survives the round trip through the file", () => {
    const stored = storeSection(section('alpha'), NEW, 7);
    const [parsed] = parseSections(render(NEW, [stored]));
    expect(parsed).toMatchObject({ id: 'alpha', took: 7, run: NEW, verdicts: stored.verdicts });
  });
});

describe('gitState', () => {
  it('gives HEAD and the uncommitted paths, leaving the report file out', async () => {
    const repo = await mkdtemp(path.join(dir, 'repo-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        encoding: 'utf8',
      }).trim();
    git('init', '-q');
    await writeFile(path.join(repo, 'a.txt'), 'a');
    await writeFile(path.join(repo, 'BENCHMARKS.md'), 'old');
    git('add', '-A');
    git('commit', '-qm', 'first');
    const head = git('rev-parse', 'HEAD');
    const report = path.join(repo, 'BENCHMARKS.md');
    expect(gitState(repo, report)).toEqual({ commit: head, dirty: [] });
    await writeFile(report, 'rewritten by an earlier run');
    expect(gitState(repo, report)).toEqual({ commit: head, dirty: [] });
    await writeFile(path.join(repo, 'a.txt'), 'changed');
    await writeFile(path.join(repo, 'new.txt'), 'untracked');
    expect(gitState(repo, report)).toEqual({ commit: head, dirty: ['a.txt', 'new.txt'] });
    expect(gitState(path.join(dir))).toEqual({ dirty: [] });
  });
});
