/**
 * A file with a very long string literal (model.ts's JSON) is formatted with the literal kept away
 * from prettier: the same bytes as prettier over the whole file, and prettier as a whole where the
 * literal is not one it puts on a line of its own.
 */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import {
  formatWithLongStrings,
  LONG,
  makeString,
} from '../../generator/emit/format-long-strings.ts';
import { jsonLiteral } from '../../generator/emit/escape.ts';

/** A JSON value whose text is longer than LONG, with both quotes, escapes and non-ASCII text. */
function bigValue(seed: number, size = LONG * 1.5): unknown {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  const words = ["it's", 'a "quoted" word', 'back\\slash', 'naïve ☃', 'tab\there', 'plain'];
  const items = [];
  for (let i = 0; items.length * 40 < size; i++)
    items.push({ id: next(), text: words[next() % words.length], n: i });
  return { title: "GitHub's", items };
}

const modelTs = (literal: string) =>
  `// header: run \`dataapi generate\`\nimport type { ServiceModel } from 'dataapi/model';\n\n/** doc */\nexport const model = JSON.parse(${literal}) as ServiceModel;\n`;

describe('formatWithLongStrings', () => {
  for (const singleQuote of [true, false]) {
    it(`gives prettier's bytes for model.ts (singleQuote ${singleQuote})`, async () => {
      const options = { printWidth: 100, singleQuote, trailingComma: 'all', parser: 'babel-ts' };
      const format = (text: string) => prettier.format(text, options as prettier.Options);
      // The JSON text as a double-quoted literal (jsonstr), and one with no double quote inside,
      // and a single-quoted one: prettier keeps or swaps the quotes of each.
      const json = JSON.stringify(bigValue(7));
      const literals = [
        jsonLiteral(json),
        jsonLiteral(json.replaceAll('"', '`')),
        `'${json.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`,
      ];
      for (const literal of literals) {
        const text = modelTs(literal);
        const fast = await formatWithLongStrings(text, singleQuote, format);
        expect(fast).toBeDefined();
        expect(fast).toBe(await format(text));
      }
    });
  }

  it("gives prettier's bytes for a literal of megabytes (model.ts on GitHub's: 10 MB)", async () => {
    const options = {
      printWidth: 100,
      singleQuote: true,
      trailingComma: 'all',
      parser: 'babel-ts',
    };
    const format = (text: string) => prettier.format(text, options as prettier.Options);
    const text = modelTs(jsonLiteral(JSON.stringify(bigValue(11, 10_500_000))));
    const fast = await formatWithLongStrings(text, true, format);
    expect(fast).toBeDefined();
    expect(fast).toBe(await format(text));
  });

  it('leaves a file without a long literal, or with one not on a line of its own, to prettier', async () => {
    const format = (text: string) => prettier.format(text, { parser: 'babel-ts' });
    const short = modelTs('"{}"');
    expect(await formatWithLongStrings(short, false, format)).toBeUndefined();
    // A directive (`"...";`) prints by other rules; so does a literal inside a block comment.
    const literal = jsonLiteral(JSON.stringify(bigValue(3)));
    expect(await formatWithLongStrings(`${literal};\n`, false, format)).toBeUndefined();
    const commented = `/*\n${literal},\n*/\nexport const a = 1;\n`;
    expect(await formatWithLongStrings(commented, false, format)).toBeUndefined();
  });
});

describe('makeString', () => {
  it("gives prettier's util.makeString bytes for any text and either quote", () => {
    // Seeded strings over the characters that matter (escapes, both quotes, line breaks, a
    // surrogate pair), and the edges: a trailing backslash, escaped backslashes before quotes.
    let x = 29;
    const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
    const alphabet = ['\\', "'", '"', 'a', '\n', '0', 'x', '\u2028', '😀', ' '];
    const texts = ['', '\\', "\\'", '\\"', "\\\\'", '\\\\"', 'a\'b"c', "\\\\\\'"];
    for (let i = 0; i < 2000; i++)
      texts.push(
        Array.from({ length: next() % 24 }, () => alphabet[next() % alphabet.length]).join(''),
      );
    for (const text of texts)
      for (const quote of ['"', "'"] as const)
        expect(makeString(text, quote)).toBe(prettier.util.makeString(text, quote));
  });
});
