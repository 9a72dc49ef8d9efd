/**
 * Git revision mode on a real temporary repository: the spec as of a revision, with the files
 * its $refs reach inside and outside its folder, against the working tree or another revision.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffInputError, diffSpecs } from '../../generator/diff/index.ts';

let repo: string;
const git = (...args: string[]) =>
  execFileSync(
    'git',
    [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.invalid',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  );
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  writeFileSync(path.join(repo, file), text);
};

const ROOT_SPEC = `openapi: 3.1.0
info: { title: Split, version: '1' }
paths:
  /pets:
    $ref: paths/pets.yaml
`;
const PETS_PATH = `get:
  operationId: listPets
  responses:
    '200':
      description: ok
      content:
        application/json:
          schema:
            type: array
            items: { $ref: '../../shared/pet.yaml' }
`;
const PET = (extra: string) => `type: object
required: [id, name]
properties:
  id: { type: string }
  name: { type: string }
${extra}`;

beforeAll(() => {
  repo = mkdtempSync(path.join(os.tmpdir(), 'dataapi-diff-git-'));
  git('init', '-q', '-b', 'main');
  write('spec/openapi.yaml', ROOT_SPEC);
  write('spec/paths/pets.yaml', PETS_PATH);
  write('shared/pet.yaml', PET('  age: { type: integer }\n'));
  git('add', '-A');
  git('commit', '-qm', 'first');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('dataapi diff: git revisions', () => {
  it('reads the spec at a revision with the $ref files outside its folder, against the working tree', async () => {
    const same = await diffSpecs({ base: 'main', cwd: repo });
    expect(same.base).toBe('main:spec/openapi.yaml');
    expect(same.changes).toEqual([]);
    // Change only the external file: the working tree's pet loses a required field.
    write(
      'shared/pet.yaml',
      PET('  age: { type: integer }\n').replace('required: [id, name]', 'required: [id]'),
    );
    const r = await diffSpecs({ base: 'main', cwd: repo });
    expect(r.changes.map((c) => `${c.code} ${c.operation} ${c.side}`)).toEqual([
      'response-property-became-optional listPets head',
    ]);
    write('shared/pet.yaml', PET('  age: { type: integer }\n'));
  });

  it('compares two revisions, and REV:path names another path', async () => {
    git('checkout', '-qb', 'feature');
    write('shared/pet.yaml', PET(''));
    git('commit', '-qam', 'drop age');
    const r = await diffSpecs({ base: 'main', head: 'feature', cwd: repo });
    expect(r.changes.map((c) => `${c.code} ${c.operation}`)).toEqual([
      'response-optional-property-removed listPets',
    ]);
    const byPath = await diffSpecs({
      base: 'main:spec/openapi.yaml',
      head: 'HEAD~1:spec/openapi.yaml',
      cwd: repo,
    });
    expect(byPath.changes).toEqual([]);
    git('checkout', '-q', 'main');
  });

  it('an unknown revision, or a spec missing at the revision, is bad input with a clear message', async () => {
    await expect(diffSpecs({ base: 'origin/nowhere', cwd: repo })).rejects.toThrow(
      /BASE origin\/nowhere: neither a file nor a git revision/,
    );
    await expect(diffSpecs({ base: 'main:spec/other.yaml', cwd: repo })).rejects.toThrow(
      /BASE main:spec\/other\.yaml: spec\/other\.yaml does not exist at that revision/,
    );
    await expect(diffSpecs({ base: '--output=x', cwd: repo })).rejects.toThrow(DiffInputError);
  });

  it('a broken description at a revision is named by revision and file, not by a temporary folder', async () => {
    git('checkout', '-qb', 'broken');
    write(
      'spec/paths/pets.yaml',
      PETS_PATH.replace("'../../shared/pet.yaml'", "'../../shared/missing.yaml'"),
    );
    git('commit', '-qam', 'break');
    const err = await diffSpecs({ base: 'broken', cwd: repo }).catch((e: unknown) => e);
    git('checkout', '-q', 'main');
    expect(err).toBeInstanceOf(DiffInputError);
    expect((err as Error).message).toContain('broken:spec/paths/pets.yaml');
    expect((err as Error).message).not.toContain(os.tmpdir());
  });
});
