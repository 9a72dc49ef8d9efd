/**
 * Reading a description as it was at a git revision: the root file and every file its `$ref`s
 * reach are written with `git show` into a temporary folder, keeping their paths relative to
 * the repository root, so the project's loader reads them exactly as it reads a working tree.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { isObject as isObj } from '../../model/object.ts';

const run = promisify(execFile);

export class GitError extends Error {}

async function git(cwd: string, args: string[]): Promise<Buffer> {
  const { stdout } = await run('git', args, {
    cwd,
    encoding: 'buffer',
    maxBuffer: 512 * 1024 * 1024,
  });
  return stdout;
}

/** The commit a revision names, or undefined when it names none (or is not safe to pass on). */
export async function resolveRevision(cwd: string, rev: string): Promise<string | undefined> {
  if (rev === '' || rev.startsWith('-') || /[\s\0]/.test(rev)) return undefined;
  try {
    const out = await git(cwd, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${rev}^{commit}`,
    ]);
    return out.toString('utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  try {
    return (await git(cwd, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  } catch {
    return undefined;
  }
}

/** `$ref` targets in other files, relative to the file that holds them. */
function externalRefs(text: string): string[] {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch {
    return []; // the loader reports the syntax error with its line
  }
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObj(node)) {
      const ref = node['$ref'];
      if (typeof ref === 'string' && !ref.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
        const file = ref.split('#')[0] ?? '';
        if (file !== '') found.add(decodeURI(file));
      }
      for (const [key, value] of Object.entries(node))
        if (key !== 'example' && key !== 'examples' && key !== 'enum' && key !== 'const')
          visit(value);
    }
  };
  visit(doc);
  return [...found];
}

/**
 * Writes `specPath` (relative to the repository root, `/`-separated) as of `commit`, with the
 * files it references, under `into`. Throws GitError when the root file is not in that commit.
 */
export async function extractSpec(
  root: string,
  commit: string,
  specPath: string,
  into: string,
): Promise<string> {
  const listing = (await git(root, ['ls-tree', '-r', '-z', '--name-only', commit])).toString(
    'utf8',
  );
  const tracked = new Set(listing.split('\0').filter(Boolean));
  if (!tracked.has(specPath)) throw new GitError(`${specPath} does not exist at that revision`);
  const queue = [specPath];
  const done = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (done.has(file) || !tracked.has(file)) continue; // a missing target is the loader's to report
    done.add(file);
    const content = await git(root, ['show', `${commit}:${file}`]);
    const target = path.join(into, ...file.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
    for (const ref of externalRefs(content.toString('utf8'))) {
      const next = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref));
      if (!next.startsWith('../')) queue.push(next);
    }
  }
  return path.join(into, ...specPath.split('/'));
}
