/**
 * The packed client's declarations kept between runs (generator/pack/declarations-kept.ts): a
 * second pack of the same stage over the same files reuses them, and a change to any file the
 * compiler read, or to the stage, computes them again. A toolkit folder of a few files of the
 * test's own (inside the project, so that Node's types are found as from the toolkit's).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { emitDeclarations } from '../../generator/pack/declarations.ts';
import { removeWork, workDir } from '../work.ts';

const root = workDir('declarations-kept');
afterAll(() => removeWork(root));

const helper = (field: string) =>
  `export interface Row {\n  ${field}: string;\n}\nexport const rowOf = (v: string): Row => ({ ${field}: v });\n`;

/** A stage importing the folder's own helper.ts; the token makes the stage new to the cache. */
const stage = (token: string) =>
  new Map([
    [
      'index.ts',
      `// ${token}\nimport { rowOf, type Row } from '../helper.ts';\nexport const first = (): Row => rowOf('a');\n`,
    ],
  ]);

it('reuses the declarations of an unchanged stage and files, and emits again after a change', () => {
  writeFileSync(path.join(root, 'helper.ts'), helper('name'));
  const token = randomUUID();
  const first = emitDeclarations({ root, stage: stage(token) });
  expect(first.kept).toBe(false);
  expect(first.declarations.get('lib/helper')).toContain('name: string');

  const again = emitDeclarations({ root, stage: stage(token) });
  expect(again.kept).toBe(true);
  expect([...again.declarations]).toEqual([...first.declarations]);

  // A file the compiler read changed: its declaration shows the change.
  writeFileSync(path.join(root, 'helper.ts'), helper('title'));
  const changed = emitDeclarations({ root, stage: stage(token) });
  expect(changed.kept).toBe(false);
  expect(changed.declarations.get('lib/helper')).toContain('title: string');
  expect(emitDeclarations({ root, stage: stage(token) }).kept).toBe(true);

  // Another stage over the same files is another entry.
  expect(emitDeclarations({ root, stage: stage(randomUUID()) }).kept).toBe(false);
});
