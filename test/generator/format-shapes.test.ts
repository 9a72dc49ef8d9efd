/**
 * Files that differ only in their strings and comments share one prettier run
 * (generator/emit/format-shapes.ts): every file must still get exactly prettier's bytes.
 */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { fillSkeleton, shapeFormatter, skeletonOf } from '../../generator/emit/format-shapes.ts';
import { createEngine, loadTemplates } from '../../generator/emit/engine.ts';
import { renderAll } from '../../generator/emit/render.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { synthSpec } from '../../bench/synth.ts';
import { OAS_EXAMPLES, ROOT } from './helpers.ts';

const options = { printWidth: 100, singleQuote: true, trailingComma: 'all' } as const;
const format = (text: string) => prettier.format(text, { ...options, parser: 'babel-ts' });

/** Every file through the shape-sharing formatter equals prettier on that file alone. */
async function expectPrettierBytes(files: string[]): Promise<number> {
  let calls = 0;
  const shared = shapeFormatter((text) => (calls++, format(text)));
  for (const text of files) expect(await shared(text)).toBe(await format(text));
  return calls;
}

describe('shapeFormatter', () => {
  it('gives prettier bytes on strings of every kind and width, keys, comments and layouts', async () => {
    const files = [
      `import { a } from "x/y";\n// note   \nconst o = { "abc": 1, "a-b": 2 };\ncall(o, "id");\n`,
      `import { a } from "x/zz";\n// a longer note\nconst o = { "abd": 1, "a-c": 2 };\ncall(o, "other");\n`,
      `const o = { "abc": 1 };\n`,
      `const o = { "a-b": 1 };\n`,
      `const o = { "123": 1, "1e3": 2, "0x1": 3 };\n`,
      `f("${'x'.repeat(70)}", "${'y'.repeat(30)}");\n`,
      `f("${'x'.repeat(70)}", "${'y'.repeat(20)}");\n`,
      `f("${'x'.repeat(70)}", "${'y-'.repeat(10)}");\n`,
      `const s = "it's";\nconst t = 'say "hi"';\nconst u = "back\\\\slash";\n`,
      `/** doc with "quotes" */\nexport const x = "招生章程";\n`,
      `// prettier-ignore\nconst   spaced = [1,2];\n`,
      `const r = a / b;\nconst re = /x/g;\n`,
      'const t = `template ${x}`;\n',
    ];
    await expectPrettierBytes(files);
  });

  it('shares one prettier run among files of one shape, and not among others', async () => {
    const file = (id: string, note: string) =>
      `// ${note}\nimport { suite } from "dataapi/contract";\n\nsuite(model, "${id}");\n`;
    const calls = await expectPrettierBytes([
      file('getOne', 'GET /one'),
      file('putTwo', 'PUT /two/{id}'),
      file('get-one', 'GET /one'),
      file('getThree', 'GET /three'),
    ]);
    expect(calls).toBe(3); // getOne and putTwo share; get-one (not an identifier) and getThree (wider) do not
    expect(skeletonOf('const s = "it\'s";')).toBeUndefined();
    expect(fillSkeleton('const s = "aa";\n', [])).toBeUndefined();
  });

  it('gives prettier bytes on every emitted file of the service and real descriptions', async () => {
    const templates = await loadTemplates(`${ROOT}/templates`, createEngine());
    const documents = [
      (await loadSpec(`${ROOT}/spec/openapi.yaml`)).document,
      (await loadSpec(`${OAS_EXAMPLES}/3.0/json/star-trek.json`)).document,
      (await loadSpec(`${OAS_EXAMPLES}/3.0/json/petstore-expanded.json`)).document,
      synthSpec(60),
    ];
    let files = 0;
    let calls = 0;
    for (const document of documents) {
      const model = normalise({ file: 'x.json', locate: () => undefined, document });
      const ts = renderAll(model, templates, { specLabel: 'x.json' })
        .filter((f) => f.path.endsWith('.ts'))
        .map((f) => f.content);
      files += ts.length;
      calls += await expectPrettierBytes(ts);
    }
    expect(calls).toBeLessThan(files / 2);
  });
});
