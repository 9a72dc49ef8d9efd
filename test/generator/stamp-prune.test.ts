/**
 * Up-to-date stamps (generator/speed/stamp.ts) and type-check records (typecheck-cache.ts) are one
 * per output folder: a project generating into ever new folders (temporary ones, as this suite
 * does) must not grow the cache forever. The ones written last are kept.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshStamp, KEPT_STAMPS, writeStamp } from '../../generator/speed/stamp.ts';
import { KEPT_RECORDS, recordChecked } from '../../generator/speed/typecheck-cache.ts';

let root: string;
let cache: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'dataapi-stamps-'));
  cache = path.join(root, 'node_modules/.cache/dataapi');
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** `count` older files in `dir`, one second apart; their names, oldest first. */
async function olderFiles(dir: string, count: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: count }, (_, i) => `${i.toString(16).padStart(16, '0')}.json`);
  for (const [i, name] of names.entries()) {
    await writeFile(path.join(dir, name), '{}');
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    await utimes(path.join(dir, name), at, at);
  }
  return names;
}

/** The seven oldest went (six over, and one more for the new file); the rest stayed. */
async function expectNewestKept(dir: string, old: string[], most: number): Promise<void> {
  const left = await readdir(dir);
  expect(left).toHaveLength(most);
  for (const name of old.slice(0, 7)) expect(left).not.toContain(name);
  for (const name of old.slice(7)) expect(left).toContain(name);
}

it('keeps the stamps written last, at most KEPT_STAMPS, and nothing else of the cache goes', async () => {
  const dir = path.join(cache, 'generate');
  const old = await olderFiles(dir, KEPT_STAMPS + 6);
  await writeFile(path.join(cache, 'mock-model-x.model.json'), '{}');
  const spec = path.join(root, 'spec.yaml');
  await writeFile(spec, 'openapi: 3.1.0\n');
  await writeStamp(
    path.join(root, 'out'),
    { projectRoot: root, templatesDir: path.join(root, 'templates'), specLabel: 'spec.yaml' },
    [spec],
    { operations: 0, previews: 0 },
    [],
  );
  await expectNewestKept(dir, old, KEPT_STAMPS);
  expect(await readdir(cache)).toContain('mock-model-x.model.json');
});

it('keeps a stamp found fresh over stamps written after it', async () => {
  const dir = path.join(cache, 'generate');
  await rm(dir, { recursive: true, force: true });
  const spec = path.join(root, 'spec.yaml');
  await writeFile(spec, 'openapi: 3.1.0\n');
  const ctx = { projectRoot: root, templatesDir: path.join(root, 'templates'), specLabel: 'x' };
  const write = (out: string) =>
    writeStamp(path.join(root, out), ctx, [spec], { operations: 0, previews: 0 }, []);
  await write('stable'); // a folder whose output stays as it is (a `--spec` suite's)
  const [stable] = await readdir(dir);
  const old = new Date(Date.UTC(2025, 0, 1));
  await utimes(path.join(dir, stable!), old, old);
  await olderFiles(dir, KEPT_STAMPS - 1); // 2026: all newer than it
  expect(await freshStamp(path.join(root, 'stable'), ctx)).toBeDefined();
  await write('another'); // one over: the oldest 2026 file goes, not the stamp just used
  const left = await readdir(dir);
  expect(left).toHaveLength(KEPT_STAMPS);
  expect(left).toContain(stable);
});

it('keeps the type-check records written last, at most KEPT_RECORDS', async () => {
  const dir = path.join(cache, 'typecheck');
  const old = await olderFiles(dir, KEPT_RECORDS + 6);
  await recordChecked('a-key', root, path.join(root, 'out'));
  await expectNewestKept(dir, old, KEPT_RECORDS);
});
