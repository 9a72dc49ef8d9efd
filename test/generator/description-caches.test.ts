/**
 * The per-description caches (`--spec` suite folders, the mock's kept models) do not grow without
 * bound: beyond the 32 used last, entries unused for a day go; entries used within the day stay
 * whatever their number (a run may be reading one), and each use marks its entry.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_PER_KIND, pruneUnused } from '../../generator/speed/description-caches.ts';
import { suiteFor } from '../../scripts/spec-suite.ts';
import { cleanup, FIXTURES, scratch } from './helpers.ts';

const HOUR = 3600_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');
let base: string;

/** A suite folder (with a file in it) last used `hoursAgo` before NOW. */
async function suite(dir: string, name: string, hoursAgo: number): Promise<void> {
  await mkdir(path.join(dir, name, 'generated'), { recursive: true });
  await writeFile(path.join(dir, name, 'generated', 'model.json'), '{}');
  const at = new Date(NOW - hoursAgo * HOUR);
  await utimes(path.join(dir, name), at, at);
}

beforeAll(async () => {
  base = await scratch('description-caches', true);
});
afterAll(() => cleanup(base));

describe('the per-description caches', () => {
  it('keep the 32 used last, and beyond them those used within the day', async () => {
    const dir = path.join(base, 'count');
    // 30 used in the last hours, 10 used 2 to 11 days ago, oldest last.
    for (let i = 0; i < 30; i++)
      await suite(dir, `suite-recent${String(i).padStart(2, '0')}`, i / 2);
    for (let i = 0; i < 10; i++) await suite(dir, `suite-old${i}`, 48 + 24 * i);
    await writeFile(path.join(dir, 'suite-old9.1234.tmp'), ''); // another run's write in progress
    await writeFile(path.join(dir, 'generate-stamp.json'), '{}'); // not this kind
    const removed = await pruneUnused(dir, 'suite-', { now: NOW });
    // 30 recent and the 2 most recent old ones make 32; the other 8 old ones go.
    expect(removed.sort()).toEqual([2, 3, 4, 5, 6, 7, 8, 9].map((i) => `suite-old${i}`));
    const left = readdirSync(dir);
    expect(left.filter((n) => n.startsWith('suite-') && !n.endsWith('.tmp'))).toHaveLength(
      KEPT_PER_KIND,
    );
    expect(left).toContain('suite-old9.1234.tmp');
    expect(left).toContain('generate-stamp.json');

    // Beyond the count, but used within the day: kept.
    const busy = path.join(base, 'busy');
    for (let i = 0; i < 40; i++) await suite(busy, `suite-b${String(i).padStart(2, '0')}`, i / 4);
    expect(await pruneUnused(busy, 'suite-', { now: NOW })).toEqual([]);
    expect(readdirSync(busy)).toHaveLength(40);
  });

  it("remove a kept model's files together, judged by the one used last", async () => {
    const dir = path.join(base, 'models');
    await mkdir(dir, { recursive: true });
    const put = async (name: string, hoursAgo: number) => {
      await writeFile(path.join(dir, name), '{}');
      const at = new Date(NOW - hoursAgo * HOUR);
      await utimes(path.join(dir, name), at, at);
    };
    await put('mock-model-aaaa.model.json', 100);
    await put('mock-model-aaaa.stamp.json', 1); // its stamp was read an hour ago: used
    await put('mock-model-bbbb.model.json', 100);
    await put('mock-model-bbbb.stamp.json', 100);
    expect(await pruneUnused(dir, 'mock-model-', { keep: 1, now: NOW })).toEqual([
      'mock-model-bbbb',
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      'mock-model-aaaa.model.json',
      'mock-model-aaaa.stamp.json',
    ]);
  });

  it('are pruned by a --spec run that makes a new suite, which marks its own as used', async () => {
    const cwd = path.join(base, 'project');
    const cache = path.join(cwd, 'node_modules/.cache/dataapi');
    const longAgo = (Date.now() - NOW) / HOUR + 24 * 30; // hours before now: a month ago
    for (let i = 0; i < KEPT_PER_KIND + 2; i++)
      await suite(cache, `suite-stale${String(i).padStart(2, '0')}`, longAgo + i);
    const made = await suiteFor(path.join(FIXTURES, 'lifecycle/news.yaml'), cwd);
    expect(made.regenerated).toBe(true);
    const own = path.basename(path.dirname(made.generatedDir));
    const left = readdirSync(cache).filter((n) => n.startsWith('suite-'));
    expect(left).toHaveLength(KEPT_PER_KIND);
    expect(left).toContain(own);
    // The oldest three went (34 stale and the new one make 35).
    for (const gone of ['suite-stale31', 'suite-stale32', 'suite-stale33'])
      expect(existsSync(path.join(cache, gone)), gone).toBe(false);

    // Used again (up to date, not regenerated): marked as used now.
    const folder = path.join(cache, own);
    await utimes(folder, new Date(NOW - 100 * HOUR), new Date(NOW - 100 * HOUR));
    const before = Date.now();
    expect((await suiteFor(path.join(FIXTURES, 'lifecycle/news.yaml'), cwd)).regenerated).toBe(
      false,
    );
    expect(statSync(folder).mtimeMs).toBeGreaterThanOrEqual(before - 1000);
  });
});
