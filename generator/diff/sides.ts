/**
 * Opens BASE and HEAD: a file (or folder) on disk, or a git revision (`origin/main`, or
 * `REV:path/to/openapi.yaml`), each loaded and normalised by the project's own loader.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadSpec, SpecError } from '../load.ts';
import { normalise } from '../normalise/index.ts';
import { extractSpec, GitError, repositoryRoot, resolveRevision } from './git.ts';
import { makeSide, type DiffSide } from './side.ts';

/** Bad input (exit code 2): unreadable file, unknown revision, invalid description. */
export class DiffInputError extends Error {}

export interface OpenOptions {
  cwd: string;
  /** The description's path in the working tree, used for a bare revision. */
  spec: string;
}

const exists = async (p: string) =>
  stat(p).then(
    (s) => (s.isDirectory() ? 'dir' : 'file'),
    () => undefined,
  );

/** Loads one side; `cleanup` removes what a git side wrote. */
export async function openSide(
  arg: string,
  role: 'BASE' | 'HEAD',
  options: OpenOptions,
): Promise<DiffSide> {
  const onDisk = path.resolve(options.cwd, arg);
  const kind = await exists(onDisk);
  if (kind === 'file') return load(onDisk, arg, role);
  if (kind === 'dir') {
    const inside = path.join(onDisk, path.basename(options.spec));
    if ((await exists(inside)) === 'file')
      return load(inside, path.join(arg, path.basename(options.spec)), role);
    throw new DiffInputError(`${role} ${arg}: a folder without ${path.basename(options.spec)}`);
  }
  return openRevision(arg, role, options);
}

async function openRevision(arg: string, role: string, options: OpenOptions): Promise<DiffSide> {
  const root = await repositoryRoot(options.cwd);
  if (root === undefined)
    throw new DiffInputError(
      `${role} ${arg}: no such file, and ${options.cwd} is not in a git repository`,
    );
  const colon = arg.indexOf(':');
  const rev = colon > 0 ? arg.slice(0, colon) : arg;
  const commit = await resolveRevision(options.cwd, rev);
  if (commit === undefined)
    throw new DiffInputError(
      `${role} ${arg}: neither a file nor a git revision (for a branch of the remote, fetch it first: git fetch origin ${rev.replace(/^origin\//, '')})`,
    );
  // `REV:path` is relative to the repository root (as in git), `REV:./path` to the current folder.
  const given = colon > 0 ? arg.slice(colon + 1) : undefined;
  const relative =
    given === undefined
      ? path.relative(root, path.resolve(options.cwd, options.spec))
      : given.startsWith('./') || given.startsWith('../')
        ? path.relative(root, path.resolve(options.cwd, given))
        : given;
  const specPath = relative.split(path.sep).join('/');
  const label = `${rev}:${specPath}`;
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'dataapi-diff-'));
  try {
    const file = await extractSpec(root, commit, specPath, tmp).catch((err: unknown) => {
      if (err instanceof GitError) throw new DiffInputError(`${role} ${label}: ${err.message}`);
      throw new DiffInputError(
        `${role} ${label}: git could not read it (${(err as Error).message.split('\n')[0]})`,
      );
    });
    return await load(file, label, role, tmp);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function load(file: string, label: string, role: string, tmp?: string): Promise<DiffSide> {
  try {
    const loaded = await loadSpec(file);
    const model = normalise(loaded);
    return makeSide(
      label,
      { document: loaded.document, locate: loaded.locate, file: label },
      model,
    );
  } catch (err) {
    if (!(err instanceof SpecError)) throw err;
    let message = err.message;
    if (tmp !== undefined) {
      // Name the files as they are in the revision, not as they were in the temporary folder.
      const rev = label.slice(0, label.indexOf(':') + 1);
      for (const prefix of [tmp + path.sep, path.relative(process.cwd(), tmp) + path.sep])
        message = message.split(prefix).join(rev);
    }
    // Say which side is broken in words that cannot be mistaken for the revision HEAD.
    const side =
      role === 'BASE'
        ? `the base side (${label}${tmp === undefined ? ' on disk' : ''})`
        : `the new side (${label}${tmp === undefined ? ' on disk' : ''})`;
    throw new DiffInputError(`${side} is not a valid description: ${message}`);
  }
}
