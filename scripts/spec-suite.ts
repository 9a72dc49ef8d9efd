/**
 * `--spec FILE` of `dataapi contract` and `dataapi start`: that description's own suite (model,
 * mock, contract tests) generated into a cache folder keyed by the file's path,
 * `node_modules/.cache/dataapi/suite-<hash>/`, never into generated/. A re-run with the same
 * description reuses it (the generator's stamp skips unchanged inputs); the folders of
 * descriptions not used for a day go beyond the 32 used last (generator/speed/description-caches.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withFolderLock } from '../generator/emit/lock.ts';
import { PROJECT_ROOT } from '../generator/root.ts';
import { isUrl } from '../generator/load-remote.ts';
import { markUsed, pruneUnused } from '../generator/speed/description-caches.ts';

export interface SuiteFolder {
  /** The generated tree (model.ts, mock/, contract-tests/). */
  generatedDir: string;
  operations: number;
  /** Whether the run regenerated (false: the cached suite was up to date). */
  regenerated: boolean;
}

/** A bad `--spec`: a clear message, exit code 2, nothing written. */
export class SpecInputError extends Error {}

/** The cache folder of a description's suite (keyed by the file's absolute path). */
export function suiteDir(spec: string, cwd = process.cwd()): string {
  const key = isUrl(spec) ? spec : path.resolve(cwd, spec);
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return path.join(cwd, 'node_modules', '.cache', 'dataapi', `suite-${hash}`);
}

export async function suiteFor(spec: string, cwd = process.cwd()): Promise<SuiteFolder> {
  // A URL is fetched by the loader (generator/load-remote.ts), which names it in its errors.
  const file = isUrl(spec) ? spec : path.resolve(cwd, spec);
  if (!isUrl(spec)) {
    const info = await stat(file).catch(() => undefined);
    if (!info) throw new SpecInputError(`--spec ${spec}: no such file`);
    if (!info.isFile()) throw new SpecInputError(`--spec ${spec}: not a file`);
  }
  const dir = suiteDir(spec, cwd);
  // Runs on the same description at once (CI shards) take turns; the later ones reuse the suite.
  const suite = await withFolderLock(dir, () => prepare(file, spec, dir));
  await markUsed(dir);
  // A new suite folder: the cache may hold one too many now.
  if (suite.regenerated) await pruneUnused(path.dirname(dir), 'suite-');
  return suite;
}

async function prepare(file: string, spec: string, dir: string): Promise<SuiteFolder> {
  const generatedDir = path.join(dir, 'generated');
  // Loaded here, not with the module: a contract run without --spec (most of them) never needs
  // the generator (the loader, YAML, the stamp); the saving is too small to measure per run.
  const [{ generate }, { SpecError }] = await Promise.all([
    import('../generator/generate.ts'),
    import('../generator/load.ts'),
  ]);
  let result;
  try {
    // The suite's own cache: vitest runs it without type-checking and the commands read
    // model.json, so types.ts, the client, the server, prettier and the type-check of
    // `dataapi generate` would only cost time here.
    result = await generate({ spec: file, out: generatedDir, suiteOnly: true });
  } catch (err) {
    if (err instanceof SpecError) throw new SpecInputError(`${err.message}\nNothing was written.`);
    throw err;
  }
  await linkToolkit(dir);
  // Under node_modules there is no package scope: without this, Node reads the .ts files as CommonJS.
  await writeQuietly(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`,
  );
  return { generatedDir, operations: result.operations, regenerated: !result.upToDate };
}

/**
 * Writes a file only when its text changes, and then whole (a temporary file renamed over it):
 * another run on the same description may be reading it right now (two test files on Box's
 * description at once: "package.json: File is empty" in the other's vitest).
 */
async function writeQuietly(file: string, text: string): Promise<void> {
  if ((await readFile(file, 'utf8').catch(() => undefined)) === text) return;
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}

/**
 * The generated files import `dataapi/...`: a `node_modules/dataapi` link beside them makes that
 * resolve to this toolkit, wherever the cache folder is.
 */
async function linkToolkit(dir: string): Promise<void> {
  const link = path.join(dir, 'node_modules', 'dataapi');
  const current = await readlink(link).catch(() => undefined);
  if (current === PROJECT_ROOT) return;
  await mkdir(path.dirname(link), { recursive: true });
  if (current !== undefined) await rm(link, { force: true });
  await symlink(PROJECT_ROOT, link, 'dir');
}
