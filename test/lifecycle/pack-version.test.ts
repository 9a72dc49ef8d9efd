/**
 * `dataapi pack client --version auto --base REV`: the version from the diff on prepared
 * revisions (patch, minor, major), and the declarations check that names a break a template makes
 * with the description unchanged. A git repository holding a copy of the toolkit and the
 * life-cycle fixture as its spec, inside the project (so the toolkit resolves its dependencies).
 * Its BASE carries the built dist/ (the same sources: the build is skipped); that a BASE without
 * dist/ is built first is shown on a toolkit of a few lines (base-build.test.ts), which spares a
 * compile of the whole toolkit (`npm ci` builds it from sources in CI).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bump, levelOfChanges, versionFromDiff } from '../../generator/pack/auto-version.ts';
import { removeWork, workDir } from '../work.ts';
import { commitToolkitCopy, gitIn, NEWS, root, V1, V2 } from './helpers.ts';

const repo = workDir('lifecycle-pack');
const SPEC = 'spec/openapi.yaml';
const git = (...args: string[]) => gitIn(repo, ...args);

/** Commits the fixture changed by `edit` as `tag`. */
function commit(tag: string, edit: (doc: ReturnType<typeof parseDocument>) => void) {
  git('checkout', '-q', 'a');
  const doc = parseDocument(readFileSync(NEWS, 'utf8'));
  edit(doc);
  writeFileSync(path.join(repo, SPEC), doc.toString());
  git('commit', '-q', '-am', tag);
  git('tag', tag);
}

beforeAll(() => {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(path.join(repo, 'spec'), { recursive: true });
  for (const p of [
    'bin',
    'scripts',
    'generator',
    'model',
    'runtime',
    'templates',
    'contract-tests',
    // The built command line (`npm test` builds it first), committed: BASE's stamp matches its
    // sources, so the base package is made without a second compile of the whole toolkit.
    'dist',
  ])
    cpSync(path.join(root, p), path.join(repo, p), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json'])
    cpSync(path.join(root, f), path.join(repo, f));
  cpSync(NEWS, path.join(repo, SPEC));
  commitToolkitCopy(repo, ['out']);
  commit('text', (d) => d.setIn([...V2, 'summary'], 'The latest news, newest first'));
  commit('added', (d) =>
    d.setIn([...V2, 'parameters'], [{ name: 'page', in: 'query', schema: { type: 'integer' } }]),
  );
  commit('removed', (d) => {
    d.deleteIn(['paths', '/v2/news']);
    d.deleteIn([...V1, 'x-dataapi-successor']);
  });
  git('checkout', '-q', 'a');
});
afterAll(() => removeWork(repo));

describe('--version auto from the diff', () => {
  it('gives patch, minor and major on three prepared revisions', async () => {
    const decide = async (rev: string) => {
      git('checkout', '-q', rev);
      return versionFromDiff({ base: 'a', spec: SPEC, cwd: repo });
    };
    expect(await decide('text')).toMatchObject({ base: '1.0.0', level: 'patch', version: '1.0.1' });
    expect(await decide('added')).toMatchObject({ level: 'minor', version: '1.1.0' });
    const major = await decide('removed');
    expect(major).toMatchObject({ level: 'major', version: '2.0.0' });
    expect(major.reasons).toEqual([
      'api-operation-removed: GET /v2/news (listNewsV2) was removed (listNewsV2)',
    ]);
    expect(major.removedOperations).toEqual(['listNewsV2']);
    expect(await decide('a')).toMatchObject({
      level: 'patch',
      reasons: ['no change to the description'],
    });
    git('checkout', '-q', 'a');
  });

  it('bumps semver and drops a pre-release', () => {
    expect(['major', 'minor', 'patch'].map((l) => bump('1.4.2-rc.1', l as 'major'))).toEqual([
      '2.0.0',
      '1.5.0',
      '1.4.3',
    ]);
    expect(levelOfChanges([])).toEqual({
      level: 'patch',
      reasons: ['no change to the description'],
    });
  });
});

describe('the declarations check', () => {
  const pack = () =>
    spawnSync(
      process.execPath,
      ['bin/dataapi.js', 'pack', 'client', '--version', 'auto', '--base', 'a', '--out', 'out'],
      { cwd: repo, encoding: 'utf8' },
    );
  const version = () =>
    (
      JSON.parse(readFileSync(path.join(repo, 'out', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;

  it('finds nothing to break when neither the description nor the toolkit changed', () => {
    const run = pack();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('--version auto: 1.0.1 (patch from 1.0.0, BASE a)');
    expect(run.stderr).not.toContain('declarations');
    expect(version()).toBe('1.0.1');
  }, 600_000);

  it('names a client type a template renamed as a toolkit break, and makes it a major', () => {
    // The break comes from a template of the working tree: BASE packs with its own templates.
    const template = path.join(repo, 'templates', 'pack', 'index.ts.hbs');
    writeFileSync(template, readFileSync(template, 'utf8').replace(/\bClient\b/g, 'ApiClient'));
    const run = pack();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('--version auto: 2.0.0 (major from 1.0.0, BASE a)');
    expect(run.stderr).toContain(
      'declarations: the export Client is gone, and the description did not remove it: a template or generator change breaks the client',
    );
    // BASE (the same revision) was packed by the run above: its kept package is compared with.
    expect(run.stderr).toContain(
      "declarations compared with BASE's package as packed by an earlier run",
    );
    expect(version()).toBe('2.0.0');
  }, 600_000);
});
