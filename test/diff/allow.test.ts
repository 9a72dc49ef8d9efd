/** Accepting changes on purpose: --allow RULE[:operationId] and x-dataapi-allow-breaking. */
import { describe, expect, it } from 'vitest';
import { DiffInputError, diffSpecs, exitCodeOf } from '../../generator/diff/index.ts';
import { BASE, baseDoc, headFile, scratch, type Doc } from './helpers.ts';

const baseDocId = (): string => baseDoc().paths['/pets/{petId}'].get.operationId as string;

const dir = scratch('allow');
const rename = (d: Doc) => (d.paths['/pets/{petId}'].get.operationId = 'fetchPet');
const removeDelete = (d: Doc) => delete d.paths['/pets/{petId}'].delete;

describe('dataapi diff: accepting a change on purpose', () => {
  it('--allow RULE:operationId accepts that change only', async () => {
    const head = headFile(dir, 'two-breaks', (d) => {
      rename(d);
      removeDelete(d);
    });
    const plain = await diffSpecs({ base: BASE, head });
    expect(plain.summary.breaking).toBe(2);
    const r = await diffSpecs({ base: BASE, head, allow: ['api-operation-id-changed:fetchPet'] });
    expect(r.summary).toMatchObject({ breaking: 1, allowed: 1 });
    expect(r.changes.find((c) => c.code === 'api-operation-id-changed')!.allowed).toEqual({
      by: 'flag',
    });
    expect(exitCodeOf(r)).toBe(1);
    const all = await diffSpecs({
      base: BASE,
      head,
      allow: ['api-operation-id-changed', 'api-operation-removed:deletePet'],
    });
    expect(all.summary).toMatchObject({ breaking: 0, allowed: 2 });
    expect(exitCodeOf(all)).toBe(0);
  });

  it('--allow for another operation does not apply, and is reported as unused', async () => {
    const head = headFile(dir, 'rename', rename);
    const r = await diffSpecs({ base: BASE, head, allow: ['api-operation-id-changed:listPets'] });
    expect(r.summary.breaking).toBe(1);
    expect(r.unusedAllowances).toEqual([
      { rule: 'api-operation-id-changed', operation: 'listPets', by: 'flag' },
    ]);
  });

  it('a renamed operation is accepted by its old operationId as well as its new one', async () => {
    const head = headFile(dir, 'rename-old', rename);
    const before = baseDocId();
    for (const name of [before, 'fetchPet']) {
      const r = await diffSpecs({ base: BASE, head, allow: [`api-operation-id-changed:${name}`] });
      expect(r.summary, name).toMatchObject({ breaking: 0, allowed: 1 });
      expect(r.unusedAllowances).toEqual([]);
    }
  });

  it('a preview left naming the old operationId: the new side is blamed, with what to update', async () => {
    const head = headFile(dir, 'rename-previewed', (d) => {
      d.paths['/pets'].get.operationId = 'findPets';
    });
    const err = await diffSpecs({ base: BASE, head }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiffInputError);
    const message = (err as Error).message;
    expect(message).toMatch(
      /^the new side \(\S+rename-previewed\.yaml on disk\) is not a valid description/,
    );
    expect(message).toMatch(
      /x-dataapi-preview-of: no operation has operationId "listPets".*update this x-dataapi-preview-of to its new operationId/,
    );
  });

  it('--allow with an unknown rule is bad input', async () => {
    await expect(diffSpecs({ base: BASE, head: BASE, allow: ['no-such-rule'] })).rejects.toThrow(
      DiffInputError,
    );
  });

  it('x-dataapi-allow-breaking on the operation, with its reason', async () => {
    const head = headFile(dir, 'ext-op', (d) => {
      rename(d);
      d.paths['/pets/{petId}'].get['x-dataapi-allow-breaking'] = [
        { rule: 'api-operation-id-changed', reason: 'no client uses it yet' },
      ];
    });
    const r = await diffSpecs({ base: BASE, head });
    expect(r.summary).toMatchObject({ breaking: 0, allowed: 1 });
    expect(r.changes[0]!.allowed).toEqual({ by: 'extension', reason: 'no client uses it yet' });
  });

  it('x-dataapi-allow-breaking at the root names a removed operation', async () => {
    const head = headFile(dir, 'ext-root', (d) => {
      removeDelete(d);
      d['x-dataapi-allow-breaking'] = [
        {
          rule: 'api-operation-removed',
          operation: 'deletePet',
          reason: 'deletion moved to the admin API',
        },
        { rule: 'rate-limit-lowered', reason: 'stale entry' },
      ];
    });
    const r = await diffSpecs({ base: BASE, head });
    expect(exitCodeOf(r)).toBe(0);
    expect(r.unusedAllowances).toEqual([
      { rule: 'rate-limit-lowered', by: 'extension', pointer: '/x-dataapi-allow-breaking/1' },
    ]);
  });

  it('x-dataapi-allow-breaking without a reason is bad input naming the place', async () => {
    const head = headFile(dir, 'ext-bad', (d) => {
      rename(d);
      d['x-dataapi-allow-breaking'] = [{ rule: 'api-operation-id-changed', operation: 'fetchPet' }];
    });
    const err = await diffSpecs({ base: BASE, head }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiffInputError);
    expect((err as Error).message).toMatch(
      /ext-bad\.yaml:\d+ at #\/x-dataapi-allow-breaking\/0\/reason: .*needs a reason/,
    );
  });
});
