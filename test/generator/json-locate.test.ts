/**
 * The JSON locator (generator/load-json-locate.ts) against the YAML parser's positions, which it
 * replaces for JSON text: the same line and column for every value of real descriptions and of a
 * text written to trip a scanner (brackets and quotes inside strings, escaped keys, minified and
 * CRLF lines), and nothing where the YAML locator finds nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLocator } from '../../generator/load-json-locate.ts';
import { parseYamlText } from '../../generator/load-text.ts';
import { joinPointer } from '../../model/pointer.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every pointer of a value, the root's included. */
function pointers(value: unknown, tokens: string[] = [], out: string[] = []): string[] {
  out.push(joinPointer(...tokens));
  if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) pointers(v, [...tokens, k], out);
  return out;
}

/** The YAML locator walks each pointer from the root: a large text's values are sampled (every nth). */
function expectSamePositions(text: string, extra: string[] = [], most = Infinity): number {
  const reference = parseYamlText('x.json', text).locate;
  const locate = jsonLocator(text);
  const every = pointers(JSON.parse(text));
  const stride = Math.max(1, Math.ceil(every.length / most));
  const all = [...every.filter((_, i) => i % stride === 0), ...extra];
  const differing = all
    .map((p) => ({ p, got: locate(p), want: reference(p) }))
    .filter(({ got, want }) => JSON.stringify(got) !== JSON.stringify(want));
  expect(differing.slice(0, 5)).toEqual([]);
  return all.length;
}

const TRICKY = [
  '{"a": {"b}": "x]\\"{", "c\\"d": [1, 2.5e-3, {"e": [ ]}], "~/": {"x/y": null}},',
  '"arr":[[0,[1,{"k":"v"}]],{},[],true,false,null,-0.5],"\\u00e9t\\u00e9": "summer",',
  '\t"crlf": {\r\n  "n": 1\r\n},',
  '  "last": "\\\\"}',
].join('\n');

describe('jsonLocator', () => {
  it('matches the YAML parser on every value of a text written to trip a scanner', () => {
    const misses = [
      '/nope',
      '/a/b}/0',
      '/arr/9',
      '/arr/-1',
      '/arr/x',
      '/arr/0/1/1/k/deeper',
      '/a/c"d/1/z',
    ];
    expect(JSON.parse(TRICKY)).toBeTruthy();
    expect(
      expectSamePositions(TRICKY, [...misses, '/arr/', '/arr/1.0', '/arr/01']),
    ).toBeGreaterThan(25);
    expect(jsonLocator(TRICKY)('/a/~0~1/x~1y')).toEqual({ line: 1, column: 70 });
    for (const p of misses) expect(jsonLocator(TRICKY)(p)).toBeUndefined();
    // The same value minified onto one line.
    expectSamePositions(JSON.stringify(JSON.parse(TRICKY)));
  });

  // The smallest of the real JSON descriptions here: the reference parse is what takes the time.
  for (const name of ['twilio-verify-v2.json'])
    it(`matches the YAML parser on every value of ${name}`, () => {
      const text = readFileSync(path.join(ROOT, 'test/fixtures/third-party', name), 'utf8');
      expect(
        expectSamePositions(text, ['/paths/~1nope/get', '/components/schemas/x']),
      ).toBeGreaterThan(1000);
    });
});
