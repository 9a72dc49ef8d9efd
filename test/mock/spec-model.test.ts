/**
 * `dataapi mock --spec`: the description's model is kept between starts (node_modules/.cache of
 * the working directory) and made again when the description changes.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchemaValidator } from 'dataapi/model/validate';
import { specModel, specModelBase } from '../../scripts/spec-model.ts';

const description = (title: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'array' } } },
            },
          },
        },
      },
    },
  });

describe('the model of mock --spec', () => {
  let dir: string;
  let spec: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-spec-model-'));
    spec = path.join(dir, 'api.json');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is read from the cache on a later start, and made again when the description changes', async () => {
    await writeFile(spec, description('First'));
    const first = await specModel('api.json', dir);
    expect(first.title).toBe('First');
    expect(first.operations.map((o) => o.id)).toEqual(['listThings']);
    const cacheDir = path.dirname(specModelBase('api.json', dir));
    expect((await readdir(cacheDir)).filter((f) => f.startsWith('mock-model-')).sort()).toEqual([
      `${path.basename(specModelBase('api.json', dir))}.model.json`,
      `${path.basename(specModelBase('api.json', dir))}.stamp.json`,
    ]);

    // A mark in the cached model: a start that returns it read the cache, not the description.
    const cached = `${specModelBase('api.json', dir)}.model.json`;
    const kept = JSON.parse(await readFile(cached, 'utf8')) as { title: string };
    expect(kept).toEqual(JSON.parse(JSON.stringify(first)));
    await writeFile(cached, JSON.stringify({ ...kept, title: 'From the cache' }));
    expect((await specModel(spec, dir)).title).toBe('From the cache');

    await writeFile(spec, description('Second'));
    expect((await specModel('api.json', dir)).title).toBe('Second');
    expect((await specModel('api.json', dir)).title).toBe('Second');
  });

  it("keeps its schema root's meta-schema verdict: a later start does not check it again", async () => {
    await writeFile(spec, description('Verdict'));
    await specModel('api.json', dir);
    const base = specModelBase('api.json', dir);
    const stamp = JSON.parse(await readFile(`${base}.stamp.json`, 'utf8')) as object;
    expect(stamp).toMatchObject({ rootValid: true });
    // A root the meta-schema refuses, in the kept model: trusted while the stamp says it was
    // valid (the check is not made again), refused once the stamp does not say so.
    const kept = JSON.parse(await readFile(`${base}.model.json`, 'utf8')) as Record<
      string,
      unknown
    >;
    const broken = { ...kept, schemaRoot: { ...(kept.schemaRoot as object), type: 5 } };
    await writeFile(`${base}.model.json`, JSON.stringify(broken));
    const trusted = await specModel('api.json', dir);
    expect(() => createSchemaValidator(trusted)).not.toThrow();
    const { rootValid: _, ...unchecked } = stamp as { rootValid?: true };
    await writeFile(`${base}.stamp.json`, JSON.stringify(unchecked));
    const unsure = await specModel('api.json', dir);
    expect(() => createSchemaValidator(unsure)).toThrow(/schema is invalid/);
  });

  it('still refuses a bad description with the loader error', async () => {
    await writeFile(path.join(dir, 'bad.json'), '{"openapi": "3.0.3", "paths": 5}');
    await expect(specModel('bad.json', dir)).rejects.toThrow(/bad\.json/);
  });
});
