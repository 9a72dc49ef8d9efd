/**
 * Up-to-date stamps (generator/speed/stamp.ts) are one per output folder: a project generating
 * into ever new folders (temporary ones, as this suite does) must not grow the cache forever.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { KEPT_STAMPS, writeStamp } from '../../generator/speed/stamp.ts';

let root: string;
afterAll(() => rm(root, { recursive: true, force: true }));

it('keeps the most recently written stamps, at most KEPT_STAMPS', async () => {
  root = await mkdtemp(path.join(tmpdir(), 'dataapi-stamps-'));
  const cache = path.join(root, 'node_modules/.cache/dataapi');
  await mkdir(cache, { recursive: true });
  // Older stamps, one second apart; and a file of the cache that is not a stamp.
  const old = Array.from(
    { length: KEPT_STAMPS + 6 },
    (_, i) => `generate-${i.toString(16).padStart(16, '0')}.json`,
  );
  for (const [i, name] of old.entries()) {
    await writeFile(path.join(cache, name), '{}');
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    await utimes(path.join(cache, name), at, at);
  }
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
  const left = (await readdir(cache)).sort();
  expect(left.filter((n) => n.startsWith('generate-'))).toHaveLength(KEPT_STAMPS);
  expect(left).toContain('mock-model-x.model.json');
  // The seven oldest went (six over, and one more for the new stamp); the newest stayed.
  for (const name of old.slice(0, 7)) expect(left).not.toContain(name);
  for (const name of old.slice(7)) expect(left).toContain(name);
});
