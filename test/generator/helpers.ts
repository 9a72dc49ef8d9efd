/** Shared helpers of the generator tests: the CLI in a child process, scratch folders, trees. */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWork } from '../work.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures');
/**
 * Scratch space inside the repo (gitignored), so generated `dataapi/...` self-imports resolve: the
 * test run's own folder there (see ../work.ts).
 */
export const WORK = runWork();
export const OAS_EXAMPLES = path.join(ROOT, 'node_modules/@readme/oas-examples');

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in a child process from the repo root and collects its output. */
export function run(cmd: string, args: string[], cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `node bin/dataapi.js <args>`, the way a user runs it. */
export const cli = (...args: string[]) => run(process.execPath, ['bin/dataapi.js', ...args]);

/**
 * A fresh, empty-or-absent scratch folder `<run's folder>/generator-<name>-<pid>` (removed first);
 * the pid keeps the test files of one run apart.
 */
export async function scratch(name: string, create = false): Promise<string> {
  const dir = path.join(WORK, `generator-${name}-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  if (create) await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * Every entry under `dir` (files with a content hash, folders, hidden entries included), or
 * `null` when it does not exist: two equal snapshots mean the folder was left exactly as it was.
 */
export async function snapshot(dir: string): Promise<Record<string, string> | null> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return null;
  }
  const out: Record<string, string> = {};
  for (const rel of entries.sort()) {
    const full = path.join(dir, rel);
    const s = await stat(full);
    out[rel.split(path.sep).join('/')] = s.isDirectory()
      ? 'dir'
      : createHash('sha256')
          .update(await readFile(full))
          .digest('hex');
  }
  return out;
}

/** Every file under `dir` with its text (for byte-for-byte comparisons). */
export async function readAll(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of (await readdir(dir, { recursive: true })).sort()) {
    const full = path.join(dir, rel);
    if ((await stat(full)).isFile())
      out[rel.split(path.sep).join('/')] = await readFile(full, 'utf8');
  }
  return out;
}

/** Sibling entries a run may leave next to `dir` (temporary trees, locks). */
export async function leftovers(dir: string): Promise<string[]> {
  const base = path.basename(dir);
  const names = await readdir(path.dirname(dir)).catch(() => [] as string[]);
  return names.filter(
    (n) =>
      n.includes(`dataapi-new-${base}-`) ||
      n.includes(`dataapi-old-${base}-`) ||
      n === `${base}.dataapi-lock`,
  );
}

/**
 * A tsconfig.json in `dir` extending the project's, over every `.ts` file there. `consumer`: as
 * another project reads the runtime (its declaration files, package.json's `types` condition),
 * not through this project's `dataapi-source` condition. Returns its path.
 */
export async function writeTsconfig(dir: string, consumer = false): Promise<string> {
  const { writeFile } = await import('node:fs/promises');
  const base = path.relative(dir, path.join(ROOT, 'tsconfig.json')).split(path.sep).join('/');
  const config = {
    extends: base,
    ...(consumer ? { compilerOptions: { customConditions: [] } } : {}),
    include: ['**/*.ts'],
    exclude: [],
  };
  const file = path.join(dir, 'tsconfig.json');
  await writeFile(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * Type-checks every `.ts` file under `dir` with the project's compiler options, in one tsc run
 * (`dir` must sit inside the project, so that `dataapi/...` resolves; see writeTsconfig).
 */
export async function typecheck(dir: string, consumer = false): Promise<Run> {
  const config = await writeTsconfig(dir, consumer);
  return run(path.join(ROOT, 'node_modules/.bin/tsc'), [
    '--noEmit',
    '--pretty',
    'false',
    '-p',
    config,
  ]);
}

/** Imports every generated module under `dir` in a child process (see import-all.ts). */
export async function importAll(dir: string): Promise<{
  run: Run;
  report?: {
    imported: string[];
    needRunner: string[];
    failed: { file: string; error: string }[];
    pwned: string | null;
  };
}> {
  const r = await run(process.execPath, ['--import', 'tsx', 'test/generator/import-all.ts', dir]);
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return { run: r, report: JSON.parse(line) };
  } catch {
    return { run: r };
  }
}

/** Removes a scratch tree after the tests (kept with KEEP_WORK=1 for a look). */
export async function cleanup(dir: string): Promise<void> {
  if (process.env['KEEP_WORK']) return;
  await rm(dir, { recursive: true, force: true });
}

/**
 * Every type error of a lone types.ts text (it imports nothing), checked whole with the compiler's
 * ES5 library: generate's own check of types.ts looks only where it expects trouble.
 */
export async function typesErrors(content: string): Promise<string[]> {
  const ts = (await import('typescript')).default;
  const options = {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es5.d.ts'], // what types.ts uses (Record, Omit); the DOM would cost seconds
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const file = path.join(WORK, 'types.ts');
  const { getSourceFile, fileExists, readFile: read } = host;
  host.getSourceFile = (name, version, ...rest) =>
    name === file
      ? ts.createSourceFile(name, content, version)
      : getSourceFile.call(host, name, version, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? content : read.call(host, name));
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, source).map((d) => {
    const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    return `types.ts(${line + 1},${character + 1}): error TS${d.code}: ${message}`;
  });
}
