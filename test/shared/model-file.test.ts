import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MissingModelError,
  StaleModelError,
  readModelFile,
} from '../../runtime/shared/model-file.ts';

describe('readModelFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-model-file-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const write = (model: unknown) => writeFile(path.join(dir, 'model.json'), JSON.stringify(model));
  const op = (parameters: unknown) => ({ id: 'getThing', method: 'get', path: '/t', parameters });

  it('reads a model whose parameters are grouped by location', async () => {
    await write({ operations: [op({ path: [], query: [], header: [], cookie: [] })] });
    const model = await readModelFile(dir);
    expect(model.operations[0]!.parameters.query).toEqual([]);
  });

  it('refuses a model.json of the earlier flat shape with the remedy, not a crash later', async () => {
    await write({ operations: [op([{ name: 'q', in: 'query' }])] });
    const error = await readModelFile(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleModelError);
    // The commands turn a MissingModelError into exit 2 with its message.
    expect(error).toBeInstanceOf(MissingModelError);
    expect((error as Error).message).toMatch(/earlier dataapi: run `dataapi generate` again/);
  });
});
