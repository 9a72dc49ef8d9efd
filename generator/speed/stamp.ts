/**
 * "Up to date" stamps, as a build system keeps them: a re-run whose inputs are unchanged and whose
 * output is intact does nothing, without loading the spec or any of the heavy libraries.
 *
 * The key covers everything the output is a function of: the spec's files (the root and every file
 * its `$ref`s reached), the templates, the toolkit's own sources (generator/ and model/, the
 * worker's plain JavaScript included), the lockfile (the
 * versions of openapi-typescript and prettier), the spec label written into headers, and the kinds.
 * The stamp lives in node_modules/.cache/dataapi, not in the output: generated/ stays a function of
 * the spec and templates alone, so refactoring the generator does not make it drift.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { keepCached, touchCached } from './toolkit-cache.ts';

export interface Stamp {
  version: 1;
  key: string;
  /** The spec's input files, absolute. */
  inputs: string[];
  operations: number;
  previews: number;
  /** Output path -> sha256 of its content, the manifest included. */
  outputs: Record<string, string>;
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

async function listFiles(dir: string, filter: (rel: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries
    .filter(filter)
    .map((rel) => path.join(dir, rel))
    .sort();
}

export interface StampContext {
  projectRoot: string;
  templatesDir: string;
  specLabel: string;
  kinds?: string[];
  /** A contract suite's files only, unformatted (GenerateOptions.suiteOnly). */
  suiteOnly?: boolean;
}

/** The key of a run over these spec files; undefined when one of them cannot be read. */
export async function stampKey(inputs: string[], ctx: StampContext): Promise<string | undefined> {
  const hash = createHash('sha256');
  hash.update(`dataapi-generate-1\0${ctx.specLabel}\0${(ctx.kinds ?? ['*']).join(',')}\0`);
  if (ctx.suiteOnly) hash.update('suite-only\0');
  const sources = (f: string) => /\.(ts|mts|mjs|js)$/.test(f);
  // The sources in this repository, the compiled files of an installed toolkit (its dist/).
  const toolkit = [];
  for (const dir of ['generator', 'model', 'dist/generator', 'dist/model'])
    toolkit.push(...(await listFiles(path.join(ctx.projectRoot, dir), sources)));
  const templates = await listFiles(ctx.templatesDir, (f) => f.endsWith('.hbs'));
  const lockfile = path.join(ctx.projectRoot, 'package-lock.json');
  // Read all at once (a few hundred files: one by one, a start waited on each in turn).
  const files = [...inputs, ...templates, ...toolkit, lockfile];
  const sums = await Promise.all(
    files.map((file) => readFile(file).then(sha, () => (file === lockfile ? null : undefined))),
  );
  for (const [i, file] of files.entries()) {
    const sum = sums[i];
    if (sum === undefined) return undefined;
    if (sum !== null) hash.update(`${file}\0${sum}\0`);
  }
  return hash.digest('hex');
}

function stampFile(projectRoot: string, outDir: string): string {
  const id = sha(path.resolve(outDir)).slice(0, 16);
  return path.join(projectRoot, 'node_modules', '.cache', 'dataapi', 'generate', `${id}.json`);
}

/** The stamp of the last run into `outDir`, when its inputs and outputs are exactly as it left them. */
export async function freshStamp(outDir: string, ctx: StampContext): Promise<Stamp | undefined> {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(await readFile(stampFile(ctx.projectRoot, outDir), 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
  if (stamp.version !== 1 || (await stampKey(stamp.inputs, ctx)) !== stamp.key) return undefined;
  const present = (await readdir(outDir, { recursive: true }).catch(() => undefined)) ?? [];
  const files = new Set<string>();
  for (const rel of present) {
    const full = path.join(outDir, rel);
    const content = await readFile(full).catch(() => undefined); // folders fail here: skipped
    if (content === undefined) continue;
    const key = rel.split(path.sep).join('/');
    files.add(key);
    if (stamp.outputs[key] !== sha(content)) return undefined;
  }
  if (files.size !== Object.keys(stamp.outputs).length) return undefined;
  touchCached(stampFile(ctx.projectRoot, outDir)); // used: kept over stamps used less recently
  return stamp;
}

export async function writeStamp(
  outDir: string,
  ctx: StampContext,
  inputs: string[],
  counts: { operations: number; previews: number },
  outputs: { path: string; content: string }[],
  /** The sha256 of an output's content when already known (from the format manifest). */
  known: (file: { path: string; content: string }) => string | undefined = () => undefined,
): Promise<void> {
  const key = await stampKey(inputs, ctx);
  if (key === undefined) return;
  const stamp: Stamp = {
    version: 1,
    key,
    inputs,
    ...counts,
    outputs: Object.fromEntries(outputs.map((f) => [f.path, known(f) ?? sha(f.content)])),
  };
  // Only the stamps written or used last are kept: one per output folder, and a project (or a test
  // suite) generating into temporary folders would otherwise add one per run, forever. A pruned
  // stamp only costs that folder's next run its shortcut.
  keepCached(stampFile(ctx.projectRoot, outDir), JSON.stringify(stamp), KEPT_STAMPS);
}

/**
 * Stamps kept at most, the least recently written or found fresh going first (a stamp found
 * fresh is touched): more than `npm test` writes in two runs (about 100 a run).
 */
export const KEPT_STAMPS = 256;
