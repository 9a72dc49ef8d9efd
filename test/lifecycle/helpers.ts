/** The life-cycle fixture and variants of it, each test in its own temporary folder. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const NEWS = path.join(root, 'test/fixtures/lifecycle/news.yaml');
export const V1 = ['paths', '/v1/news', 'get'];
export const V2 = ['paths', '/v2/news', 'get'];

export function tempDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `dataapi-${name}-`));
}

/** Writes a variant of the fixture changed through the yaml Document API into `dir`. */
export function variant(
  dir: string,
  name: string,
  edit: (doc: ReturnType<typeof parseDocument>) => void,
): string {
  const doc = parseDocument(readFileSync(NEWS, 'utf8'));
  edit(doc);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, doc.toString());
  return file;
}

/** `git ...` in `repo`, its output as text. */
export function gitIn(repo: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Makes the toolkit copy in `repo` a git repository whose first commit is tagged `a`: this
 * checkout's node_modules linked in (the toolkit reads some dependencies by path from its own
 * folder), and ignored with `ignored`.
 */
export function commitToolkitCopy(repo: string, ignored: string[]): void {
  symlinkSync(path.join(root, 'node_modules'), path.join(repo, 'node_modules'), 'junction');
  writeFileSync(path.join(repo, '.gitignore'), ['node_modules', ...ignored].join('\n') + '\n');
  gitIn(repo, 'init', '-q');
  gitIn(repo, 'config', 'user.name', 'test');
  gitIn(repo, 'config', 'user.email', 'test@example.invalid');
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'a');
  gitIn(repo, 'tag', 'a');
}
