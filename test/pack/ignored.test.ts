/**
 * What `dataapi pack client` (default --out dist/client) and `npm pack ./dist/client` leave in
 * the project is neither offered to git nor checked by prettier (`npm test` runs prettier --check .).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.ts';

const LEFT_BEHIND = [
  'dist/client/dist/esm/index.js',
  'dist/client/README.md',
  'dataapi-client-3.1.0.tgz',
];

describe('the packed client left in the project', () => {
  it.each(LEFT_BEHIND)('%s is ignored by git', (rel) => {
    // check-ignore exits 0 when the path is ignored (it need not exist), 1 when it is not.
    expect(() => execFileSync('git', ['check-ignore', '-q', rel], { cwd: ROOT })).not.toThrow();
  });

  it.each(LEFT_BEHIND)('%s is ignored by prettier', async (rel) => {
    const info = await prettier.getFileInfo(path.join(ROOT, rel), {
      ignorePath: path.join(ROOT, '.prettierignore'),
    });
    expect(info.ignored).toBe(true);
  });
});
