/**
 * types.ts is laid out without running prettier over most of it (generator/emit/types-layout.ts):
 * the result must be exactly prettier's bytes for the whole file, under the project's options and
 * prettier's defaults, on real descriptions and on one built to hold every shape the layout
 * rewrites itself (unions and intersections of expanded objects, nullable and array objects, keys
 * and strings that need quoting, comments with trailing blanks, numbers prettier rewrites).
 */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { formatByDeclaration, formatTypes } from '../../generator/emit/format.ts';
import { layoutTypes } from '../../generator/emit/types-layout.ts';
import { renderTypes } from '../../generator/emit/typescript-side.mjs';
import { loadSpec } from '../../generator/load.ts';
import { synthSpec } from '../../bench/synth.ts';
import { doNotEditHeader } from '../../generator/emit/header.ts';
import { OAS_EXAMPLES, ROOT } from './helpers.ts';

const OPTION_SETS: prettier.Options[] = [
  { printWidth: 100, singleQuote: true, trailingComma: 'all' }, // the project's .prettierrc
  {}, // prettier's defaults: width 80, double quotes
];

const header = `// ${doNotEditHeader('x.yaml')}\n/* eslint-disable */\n`;

async function expectPrettierBytes(document: unknown): Promise<void> {
  const text = header + (await renderTypes(document));
  for (const options of OPTION_SETS) {
    const format = (t: string, printWidth?: number) =>
      prettier.format(t, {
        ...options,
        ...(printWidth ? { printWidth } : {}),
        parser: 'babel-ts',
      });
    const laid = await layoutTypes(
      text,
      {
        printWidth: options.printWidth ?? 80,
        singleQuote: options.singleQuote ?? false,
        measure: prettier.util.getStringWidth,
      },
      format,
    );
    // The shortcut was taken (not the whole-file fallback), and prettier saw a minority of lines.
    expect(laid).toBeDefined();
    expect(laid!.chunkLines).toBeLessThan(text.split('\n').length / 2);
    expect(laid!.text).toBe(await formatByDeclaration(text, (t) => format(t)));
  }
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

/** Every shape the layout handles without prettier, and some it leaves to prettier. */
const shapes = {
  openapi: '3.1.0',
  info: { title: 'shapes', version: '1' },
  paths: {
    '/a': {
      get: {
        operationId: 'getA',
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/All' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: object({ name: { type: 'string', description: 'Trailing blanks   \n\nand */ end  ' } }),
      All: object(
        {
          union: { oneOf: [object({ a: { type: 'string' } }), object({ b: { type: 'number' } })] },
          unionOfThree: {
            anyOf: [
              object({ a: { type: 'string' } }),
              object({ b: { type: 'number' } }),
              object({ c: { type: 'boolean' } }),
            ],
          },
          nullable: { type: ['object', 'null'], properties: { x: { type: 'string' } } },
          list: { type: 'array', items: object({ y: { type: 'integer' } }) },
          nullableItems: {
            type: 'array',
            items: { type: ['object', 'null'], properties: { z: { type: 'string' } } },
          },
          nullableList: {
            type: ['array', 'null'],
            items: object({ w: { type: 'string' } }),
          },
          open: {
            allOf: [object({ k: { type: 'string' } })],
            additionalProperties: true,
            type: 'object',
          },
          both: {
            allOf: [{ $ref: '#/components/schemas/Pet' }, object({ extra: { type: 'string' } })],
          },
          'kebab-key': { type: 'string' },
          "it's": { type: 'string', enum: ["it's", 'say "hi"', 'both \' and "', 'back\\slash'] },
          ['k'.repeat(120)]: object({ long: { type: 'string' } }),
          longUnion: {
            type: 'string',
            enum: Array.from({ length: 14 }, (_, i) => `value_number_${i}`),
          },
          numbers: { type: 'number', enum: [1e21, 1.5, -3, 0.1, 2e-7] },
          unicode: {
            type: 'string',
            enum: ['招生章程招生章程招生章程招生章程招生章程招生章程招生章程招生章'],
          },
          ref: { $ref: '#/components/schemas/Pet' },
          refOrNull: { oneOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'null' }] },
          deep: object({
            one: object({
              two: object({
                three: {
                  oneOf: [object({ p: { type: 'string' } }), object({ q: { type: 'string' } })],
                },
              }),
            }),
          }),
        },
        ['union', 'list'],
      ),
    },
  },
};

describe('layoutTypes', () => {
  it('gives prettier-on-the-whole-file bytes on every shape it rewrites', async () => {
    await expectPrettierBytes(shapes);
  });

  it('gives prettier-on-the-whole-file bytes on the service and real third-party descriptions', async () => {
    await expectPrettierBytes((await loadSpec(`${ROOT}/spec/openapi.yaml`)).document);
    for (const f of [
      '3.0/json/star-trek.json',
      '3.0/json/polymorphism.json',
      '3.0/json/complex-nesting.json',
      '3.0/json/discriminators.json',
      '3.1/json/schema-types.json',
    ])
      await expectPrettierBytes((await loadSpec(`${OAS_EXAMPLES}/${f}`)).document);
    await expectPrettierBytes(synthSpec(100));
  });

  it('falls back to prettier on the whole file for options and text it does not model', async () => {
    const text = header + (await renderTypes(shapes));
    const format = (options: prettier.Options) => (t: string, printWidth?: number) =>
      prettier.format(t, { ...options, ...(printWidth ? { printWidth } : {}), parser: 'babel-ts' });
    for (const options of [{ tabWidth: 4 }, { useTabs: true }, { semi: false }]) {
      const whole = await prettier.format(text, { ...options, parser: 'babel-ts' });
      expect(await formatTypes(text, options, format(options))).toBe(whole);
    }
    const odd = `${text}\n/* a block comment\n   without stars */\nexport type x = 1;\n`;
    const laid = await layoutTypes(
      odd,
      { printWidth: 80, singleQuote: false, measure: prettier.util.getStringWidth },
      format({}),
    );
    expect(laid).toBeUndefined();
  });
});
