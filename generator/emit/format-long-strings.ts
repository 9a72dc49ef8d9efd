/**
 * Prettier over a file with a very long string literal, without prettier reading the literal.
 * model.ts holds the whole model as one JSON string (10 MB for GitHub's description): prettier
 * spent seconds measuring its width and re-quoting it, and held copies of it in its document.
 *
 * A string far wider than any line breaks the same way whatever its exact width, so the file is
 * formatted with the literal swapped for a placeholder that is still far wider than any line, and
 * the literal is put back as prettier prints a string (its printString: the quote that needs fewer
 * escapes, `util.getPreferredQuote`; unchanged when it already uses that quote, else re-quoted
 * with `util.makeString`). Only a literal prettier puts on a line of its own as an argument or an
 * element (model.ts's call argument), and re-quotes as a string (text in a comment or a template
 * literal keeps its quotes), is put back this way; anything else is formatted by prettier whole.
 * test/generator/format-long-strings.test.ts holds the result to prettier's bytes.
 */
import * as prettier from 'prettier';

/** Literals at least this long are swapped out (model.ts's on any description of some size). */
export const LONG = 64 * 1024;
/** The placeholder's width: wider than any print width a project sets. */
const PLACEHOLDER_WIDTH = 4096;

/**
 * `text` formatted by `format`, with its long string literals kept away from prettier; undefined
 * when the text has no literal that qualifies (the caller formats it as a whole).
 */
export async function formatWithLongStrings(
  text: string,
  singleQuote: boolean,
  format: (text: string) => Promise<string>,
): Promise<string | undefined> {
  const literals: string[] = [];
  let skeleton = '';
  let at = 0;
  for (const m of literalsIn(text)) {
    if (m.end - m.start < LONG) continue;
    // The quote prettier does not choose for plain text: a string literal comes back re-quoted,
    // the same characters in a comment or a template literal come back as they were.
    const quote = singleQuote ? '"' : "'";
    skeleton += text.slice(at, m.start) + quote + marker(literals.length) + quote;
    literals.push(text.slice(m.start, m.end));
    at = m.end;
  }
  if (literals.length === 0) return undefined;
  const formatted = await format(skeleton + text.slice(at));
  let out = '';
  at = 0;
  for (const [i, raw] of literals.entries()) {
    const placed = ownLine(formatted, marker(i), at, singleQuote ? "'" : '"');
    if (!placed) return undefined;
    out += formatted.slice(at, placed.start) + printString(raw, singleQuote);
    at = placed.end;
  }
  return out + formatted.slice(at);
}

/**
 * Quoted runs on one line, left to right, as a regular expression for `"..."` or `'...'` with
 * escapes would match them. A loop: such an expression overflows the stack on a 10 MB literal.
 */
function* literalsIn(text: string): Generator<{ start: number; end: number }> {
  for (let i = 0; i < text.length; i++) {
    const quote = text[i];
    if (quote !== '"' && quote !== "'") continue;
    let j = i + 1;
    while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    if (j >= text.length || text[j] !== quote) continue;
    yield { start: i, end: j + 1 };
    i = j;
  }
}

function marker(i: number): string {
  return `dataapiLongString${i}x`.padEnd(PLACEHOLDER_WIDTH, '-');
}

/** What prettier prints for the string literal `raw` (its printString). */
function printString(raw: string, singleQuote: boolean): string {
  const content = raw.slice(1, -1);
  const quote = prettier.util.getPreferredQuote(content, singleQuote);
  return raw[0] === quote ? raw : makeString(content, quote);
}

/**
 * prettier's `util.makeString(content, quote)`, the same bytes, as one pass: its replace with a
 * callback per quote and escape took most of a second on model.ts's 10 MB. An escaped other quote
 * loses its backslash, a bare `quote` gains one, every other escape and character stays.
 */
export function makeString(content: string, quote: '"' | "'"): string {
  const q = quote.charCodeAt(0);
  const other = q === 34 ? 39 : 34; // the other of " and '
  const parts: string[] = [quote];
  let at = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 92 /* \\ */ && i + 1 < content.length) {
      if (content.charCodeAt(i + 1) === other) {
        parts.push(content.slice(at, i));
        at = i + 1;
      }
      i++;
    } else if (c === q) {
      parts.push(content.slice(at, i), '\\');
      at = i;
    }
  }
  parts.push(content.slice(at), quote);
  return parts.join('');
}

/**
 * Where the quoted placeholder stands in the formatted text, when it occurs once, after `from`,
 * re-quoted with `requoted`, on a line of its own (an optional `,` after it) after `(`, `,` or `[`.
 */
function ownLine(
  formatted: string,
  mark: string,
  from: number,
  requoted: string,
): { start: number; end: number } | undefined {
  const first = formatted.indexOf(mark, from);
  if (first < 1 || formatted.indexOf(mark, first + 1) !== -1) return undefined;
  const start = first - 1;
  const end = first + mark.length + 1;
  if (formatted[start] !== requoted || formatted[end - 1] !== requoted) return undefined;
  const lineStart = formatted.lastIndexOf('\n', start) + 1;
  const lineEnd = formatted.indexOf('\n', end);
  if (formatted.slice(lineStart, start).trim() !== '') return undefined;
  if (!/^,?$/.test(formatted.slice(end, lineEnd === -1 ? undefined : lineEnd))) return undefined;
  // An argument or an element (a directive, printed by other rules, follows `{` or nothing).
  if (!/[(,[]$/.test(formatted.slice(0, lineStart).trimEnd())) return undefined;
  return { start, end };
}
