/** types.ts is formatted declaration by declaration: the same bytes as prettier on the whole file. */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { formatByDeclaration, formatFiles } from '../../generator/emit/format.ts';
import { renderTypes } from '../../generator/emit/typescript-side.mjs';
import { loadSpec } from '../../generator/load.ts';
import { OAS_EXAMPLES, ROOT } from './helpers.ts';

const options = {
  printWidth: 100,
  singleQuote: true,
  trailingComma: 'all',
  parser: 'babel-ts',
} as const;
const format = (text: string) => prettier.format(text, options);

describe('formatByDeclaration', () => {
  it('gives prettier-on-the-whole-file bytes for openapi-typescript output', async () => {
    for (const spec of [`${ROOT}/spec/openapi.yaml`, `${OAS_EXAMPLES}/3.0/json/star-trek.json`]) {
      const types = await renderTypes((await loadSpec(spec)).document);
      const text = `// header\n/* eslint-disable */\n${types}\n\nexport type extra = 1;\nexport type more = 2;\n`;
      expect(await formatByDeclaration(text, format)).toBe(await format(text));
    }
  });
});

describe('formatFiles', () => {
  it('lets the event loop turn while it formats (the worker answers meanwhile)', async () => {
    // Files of different shapes (a shared shape would be formatted once): many milliseconds of work.
    const files = Array.from({ length: 60 }, (_, i) => ({
      path: `f${i}.ts`,
      content: Array.from(
        { length: 40 + i },
        (_, j) => `export const v${j} = {a:${j},b:[${j},${i}]}`,
      ).join('\n'),
    }));
    let recorded = 0;
    const cache = { reuse: () => undefined, record: () => void recorded++ };
    let seen: number | undefined;
    setImmediate(() => (seen = recorded));
    const out = await formatFiles(files, cache, options, true);
    expect(out.formatted).toBe(files.length);
    // A turn of the loop came while files were still to be formatted, not only at the end.
    expect(seen).toBeDefined();
    expect(seen).toBeLessThan(files.length);
  });
});
