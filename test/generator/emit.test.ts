/**
 * Emit: byte-identical output, a re-run that writes and formats nothing, `--check` with its exit
 * codes and lists, atomic writes (a failure at the swap point, a SIGKILL mid-run, a crash between
 * the two renames), and no overwriting of a folder dataapi did not write.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeOutputPath } from '../../generator/emit/render.ts';
import { generate } from '../../generator/generate.ts';
import { cleanup, cli, leftovers, readAll, ROOT, scratch, snapshot, type Run } from './helpers.ts';

const SPEC = path.join(ROOT, 'spec/openapi.yaml');
// Every run here skips the type-check of the generated tree (typecheck-tree.test.ts is about that
// one): it takes the same place in the pipeline, before the swap, and costs seconds a run.
const relOf = (p: string) => path.relative(ROOT, p);

let dirA: string;
let dirB: string;
let first: Record<string, string>;

/** A copy of the first run's tree (manifest included, so runs into it reuse its formatting). */
async function copyOfFirst(name: string): Promise<string> {
  const dir = await scratch(name);
  made.push(dir);
  await cp(dirA, dir, { recursive: true });
  return dir;
}

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await cleanup(dir);
});

// The runs below after the first put the TypeScript side on this thread, where TypeScript is
// loaded once, not once per run in a worker (the worker's output is the same: see
// typescript-worker.test.ts, and the first two runs here; the CLI runs here use the worker).
beforeAll(async () => {
  dirA = await scratch('emit-a');
  dirB = await scratch('emit-b');
  made.push(dirA, dirB);
  await generate({ spec: SPEC, out: dirA, typecheck: false });
  await generate({ spec: SPEC, out: dirB, typecheck: false, typescriptWorker: false });
  first = await readAll(dirA);
});

describe('determinism', () => {
  it('two runs into two fresh folders give byte-identical trees', async () => {
    expect(Object.keys(first).length).toBeGreaterThan(3);
    expect(await readAll(dirB)).toEqual(first);
  });

  it('the output has no timestamps', () => {
    const year = String(new Date().getFullYear());
    for (const [rel, text] of Object.entries(first)) {
      // The model (model.json, and model.ts which carries it) and types.ts hold spec text, which may hold dates.
      if (rel === 'model.json' || rel === 'model.ts' || rel === 'types.ts') continue;
      expect(text, rel).not.toMatch(new RegExp(`${year}-\\d\\d-\\d\\dT\\d\\d:\\d\\d`));
    }
  });

  it('a re-run with unchanged input writes nothing and skips prettier (manifest cache)', async () => {
    // force: past the up-to-date shortcut, so the whole pipeline runs and the manifest is what
    // spares prettier.
    const result = await generate({
      spec: SPEC,
      out: dirA,
      force: true,
      typecheck: false,
      typescriptWorker: false,
    });
    expect(result.upToDate).toBe(false);
    expect(result.written).toEqual([]);
    expect(result.formatted).toBe(0);
    expect(result.unchanged).toBe(result.files.length);
    expect(await readAll(dirA)).toEqual(first);
  });

  it('the CLI says "0 written" on a re-run and leaves the tree byte-identical', async () => {
    const run = await cli(
      'generate',
      '--no-typecheck',
      '--spec',
      relOf(SPEC),
      '--out',
      relOf(dirA),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /\d+ operations, \d+ preview variants, \d+ files \(0 written, \d+ unchanged\) in [\d.]+s/,
    );
    expect(await readAll(dirA)).toEqual(first);
  });
});

describe('--check', () => {
  let clean: Run;
  let drift: Run;
  let driftedBefore: Record<string, string> | null;
  const changed = 'model.ts';
  let removed: string;

  beforeAll(async () => {
    clean = await cli(
      'generate',
      '--check',
      '--no-typecheck',
      '--spec',
      relOf(SPEC),
      '--out',
      relOf(dirB),
    );
    removed = Object.keys(first).find((f) => f.includes('/')) ?? 'types.ts';
    await writeFile(path.join(dirB, changed), first[changed] + '// edited by hand\n');
    await rm(path.join(dirB, removed));
    await mkdir(path.join(dirB, 'extra'), { recursive: true });
    await writeFile(path.join(dirB, 'extra/stray.ts'), 'export {};\n');
    driftedBefore = await snapshot(dirB);
    drift = await cli(
      'generate',
      '--check',
      '--no-typecheck',
      '--spec',
      relOf(SPEC),
      '--out',
      relOf(dirB),
    );
  });

  it('exits 0 when the output is up to date', () => {
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/files up to date/);
  });

  it('exits 1 on drift, listing added, removed and changed files, and writes nothing', async () => {
    expect(drift.code, drift.stderr).toBe(1);
    // From the generator's point of view: a file it would add, one it would remove, one changed.
    expect(drift.stderr).toMatch(
      new RegExp(`\\n  added +${removed.replace(/[.[\]]/g, '\\$&')}\\n`),
    );
    expect(drift.stderr).toMatch(/\n {2}removed +extra\/stray\.ts\n/);
    expect(drift.stderr).toMatch(/\n {2}changed +model\.ts\n/);
    expect(drift.stderr.match(/^ {2}(added|removed|changed) /gm)).toHaveLength(3);
    expect(await snapshot(dirB)).toEqual(driftedBefore);
  });
});

describe('atomic writes', () => {
  it('a failure injected at the swap point leaves the folder exactly as it was', async () => {
    const dir = await copyOfFirst('emit-hook');
    await writeFile(path.join(dir, 'model.ts'), '// drifted\n'); // so that the next run writes
    const before = await snapshot(dir);
    let called = 0;
    await expect(
      generate({
        spec: SPEC,
        out: dir,
        typecheck: false,
        typescriptWorker: false,
        hooks: {
          beforeSwap: () => {
            called++;
            throw new Error('injected failure at the swap point');
          },
        },
      }),
    ).rejects.toThrow('injected failure');
    expect(called).toBe(1);
    expect(await snapshot(dir)).toEqual(before);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('a run killed with SIGKILL mid-run leaves the folder as it was; the next run recovers at once', async () => {
    const dir = await copyOfFirst('emit-kill');
    await writeFile(path.join(dir, 'model.ts'), '// drifted\n');
    await rm(path.join(dir, 'types.ts'));
    const before = await snapshot(dir);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/generator/generate-child.ts', relOf(SPEC), relOf(dir)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('close', () => reject(new Error(`child ended before the swap point: ${stderr}`)));
    });
    // The whole new tree is on disk next to the output folder, about to be swapped in.
    expect((await leftovers(dir)).some((n) => n.startsWith('.tmp-dataapi-new-'))).toBe(true);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(await snapshot(dir)).toEqual(before);
    // The lock and the temporary tree of the killed run do not block or leak into the next run.
    const result = await generate({
      spec: SPEC,
      out: dir,
      typecheck: false,
      typescriptWorker: false,
    });
    expect(result.written.sort()).toEqual(['model.ts', 'types.ts']);
    expect(await readAll(dir)).toEqual(first);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('a crash between the two renames is undone by the next run before it writes', async () => {
    const dir = await copyOfFirst('emit-crash');
    await writeFile(path.join(dir, 'model.ts'), '// drifted\n');
    const before = await snapshot(dir);
    // What a kill between `rename(out, old)` and `rename(tmp, out)` leaves (pid 2^22+1 is dead).
    const tag = `${path.basename(dir)}-4194305-0badc0de`;
    await rename(dir, path.join(path.dirname(dir), `.tmp-dataapi-old-${tag}`));
    await mkdir(path.join(path.dirname(dir), `.tmp-dataapi-new-${tag}`));
    await expect(
      generate({
        spec: SPEC,
        out: dir,
        typecheck: false,
        typescriptWorker: false,
        hooks: {
          beforeSwap: () => {
            throw new Error('fail after recovery');
          },
        },
      }),
    ).rejects.toThrow('fail after recovery');
    expect(await snapshot(dir)).toEqual(before);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('refuses to replace a non-empty folder that has no dataapi manifest', async () => {
    const dir = await scratch('emit-foreign', true);
    made.push(dir);
    await writeFile(path.join(dir, 'notes.txt'), 'mine\n');
    await mkdir(path.join(dir, 'src'));
    await writeFile(path.join(dir, 'src/index.ts'), 'export const mine = 1;\n');
    const before = await snapshot(dir);
    await expect(
      generate({ spec: SPEC, out: dir, typecheck: false, typescriptWorker: false }),
    ).rejects.toThrow(/refusing to replace .*not empty and was not written by dataapi/);
    expect(await snapshot(dir)).toEqual(before);
    expect(await leftovers(dir)).toEqual([]);
    expect(await readdir(dir)).toEqual(['notes.txt', 'src']);
  });
});

describe('output paths', () => {
  it('never leave the output folder', () => {
    for (const bad of ['../x.ts', '../../evil.ts', 'a/../../x', '/etc/x', '..', 'a\0b'])
      expect(() => safeOutputPath(bad), bad).toThrow(/outside the output folder/);
    expect(safeOutputPath('client/./a.ts')).toBe('client/a.ts');
  });
});

describe('--kinds', () => {
  it('renders only the kinds asked for and keeps the other kinds as they are', async () => {
    const dir = await copyOfFirst('emit-kinds');
    // A stale client file (as if the spec changed since): a partial run of `server` keeps it as is.
    const stale = path.join(dir, 'client/index.ts');
    await writeFile(stale, '// kept as it was\n');
    await rm(path.join(dir, 'server/index.ts'));
    const result = await generate({
      spec: SPEC,
      out: dir,
      kinds: ['server'],
      typecheck: false,
      typescriptWorker: false,
    });
    expect(result.written).toEqual(['server/index.ts']);
    const after = await readAll(dir);
    expect(after['client/index.ts']).toBe('// kept as it was\n');
    expect(Object.keys(after).sort()).toEqual(Object.keys(first).sort());
    expect(after['server/index.ts']).toBe(first['server/index.ts']);
  });
});

describe('the up-to-date shortcut', () => {
  it('skips a re-run whose inputs and output are unchanged, and only that', async () => {
    const dir = await copyOfFirst('emit-stamp');
    const specCopy = path.join(dir, '..', 'emit-stamp-spec.yaml');
    made.push(specCopy);
    await cp(SPEC, specCopy);
    const run = () =>
      generate({ spec: specCopy, out: dir, typecheck: false, typescriptWorker: false });
    expect((await run()).upToDate).toBe(false); // first run into this folder: no stamp yet
    const again = await run();
    expect(again.upToDate).toBe(true);
    expect(again.written).toEqual([]);
    expect(again.model).toBeUndefined(); // nothing was loaded
    expect(again.operations).toBeGreaterThan(20);

    // A hand edit of the output is not "up to date": the run restores the file.
    const edited = path.join(dir, 'client/index.ts');
    await writeFile(edited, '// edited by hand\n');
    const restored = await run();
    expect(restored.upToDate).toBe(false);
    expect(restored.written).toEqual(['client/index.ts']);

    // A change of the spec is not either.
    expect((await run()).upToDate).toBe(true);
    const text = await readFile(specCopy, 'utf8');
    await writeFile(specCopy, text.replace("version: '3.1'", "version: '3.1.1'"));
    const changed = await run();
    expect(changed.upToDate).toBe(false);
    expect(changed.written).toContain('model.json');
  });
});

describe('the command line', () => {
  it('gives the same tree from the built JavaScript (dist/) as the sources in-process', async () => {
    const built = await scratch('emit-cli-built');
    made.push(built);
    const a = await cli('generate', '--no-typecheck', '--spec', relOf(SPEC), '--out', relOf(built));
    expect(a.code, a.stderr).toBe(0);
    expect(await readAll(built)).toEqual(first);
  });
});
