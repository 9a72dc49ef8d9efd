/**
 * Prettier once per shape of file instead of once per file. The per-operation templates give
 * hundreds of files (1,223 contract-test files for GitHub's description) that differ only in the
 * text of their string literals and `//` comments. Prettier's layout depends on a string's width
 * and on whether it reads as an identifier or a number (a quoted key is unquoted when it can be),
 * and never on a line comment's text (it only trims its end); so a file whose strings are replaced
 * by placeholders of the same width and kind, and whose comments are emptied, has the same
 * layout. That skeleton is formatted once, and each file's own strings and comments are put back
 * into the formatted skeleton, re-quoted as prettier re-quotes them.
 *
 * Only plain files qualify: printable ASCII strings without quotes or backslashes, no template
 * literals, regular expressions or block comments holding file-specific text, no
 * `prettier-ignore`. Anything else, or a skeleton whose tokens do not come back in the same order
 * and widths, is formatted by prettier as a whole. test/generator/format-shapes.test.ts holds the
 * result to prettier's bytes file by file.
 */

interface Token {
  kind: 'string' | 'comment';
  /** A string's content (without quotes), a comment's text after `//`. */
  text: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const PLAIN = /^[\x20-\x7e]*$/;

/** A placeholder of the same width as `text` that prettier treats the same way. */
function placeholder(text: string): string | undefined {
  if (IDENTIFIER.test(text)) return 'a'.repeat(text.length);
  if (text === '' || /^[+-]?\.?\d/.test(text)) return undefined; // numeric-looking: keep apart
  return '-'.repeat(text.length);
}

/** The skeleton of `source` and its tokens in order; undefined when the file does not qualify. */
export function skeletonOf(source: string): { skeleton: string; tokens: Token[] } | undefined {
  if (source.includes('prettier-ignore')) return undefined;
  const tokens: Token[] = [];
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '"' || c === "'") {
      const end = source.indexOf(c, i + 1);
      const newline = source.indexOf('\n', i + 1);
      if (end < 0 || (newline >= 0 && newline < end)) return undefined;
      const text = source.slice(i + 1, end);
      const stand = PLAIN.test(text) && !/["'\\]/.test(text) ? placeholder(text) : undefined;
      if (stand === undefined) return undefined;
      tokens.push({ kind: 'string', text });
      out += `"${stand}"`;
      i = end + 1;
    } else if (c === '/' && source[i + 1] === '/') {
      const newline = source.indexOf('\n', i);
      const end = newline < 0 ? source.length : newline;
      tokens.push({ kind: 'comment', text: source.slice(i + 2, end) });
      out += '//';
      i = end;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      out += source.slice(i, end + 2); // block comments stay in the skeleton as they are
      i = end + 2;
    } else if (c === '/' || c === '`' || c === '\\') {
      return undefined; // division, regular expressions, templates, escapes: not worth telling apart
    } else {
      out += c;
      i++;
    }
  }
  return { skeleton: out, tokens };
}

/** The file's own strings and comments put back into its formatted skeleton. */
export function fillSkeleton(formatted: string, tokens: Token[]): string | undefined {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < formatted.length) {
    const c = formatted[i] as string;
    if (c === '"' || c === "'") {
      const end = formatted.indexOf(c, i + 1);
      const token = tokens[n++];
      const stand = formatted.slice(i + 1, end);
      if (token?.kind !== 'string' || end < 0 || stand.length !== token.text.length)
        return undefined;
      // Quote-free text: prettier gives it the quote it gave the placeholder.
      out += c + token.text + c;
      i = end + 1;
    } else if (c === '/' && formatted[i + 1] === '/') {
      const newline = formatted.indexOf('\n', i);
      const end = newline < 0 ? formatted.length : newline;
      const token = tokens[n++];
      if (token?.kind !== 'comment' || end !== i + 2) return undefined;
      out += ('//' + token.text).trimEnd(); // prettier trims a line comment's end
      i = end;
    } else if (c === '/' && formatted[i + 1] === '*') {
      const end = formatted.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      out += formatted.slice(i, end + 2);
      i = end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return n === tokens.length ? out : undefined;
}

/**
 * A formatter that formats each distinct skeleton once. `format` is prettier for one file's text;
 * a file that does not qualify goes to it as it is.
 */
export function shapeFormatter(
  format: (text: string) => Promise<string>,
): (text: string) => Promise<string> {
  const formatted = new Map<string, Promise<string>>();
  return async (text) => {
    const shape = skeletonOf(text);
    if (!shape) return format(text);
    let pending = formatted.get(shape.skeleton);
    if (!pending) formatted.set(shape.skeleton, (pending = format(shape.skeleton)));
    return fillSkeleton(await pending, shape.tokens) ?? format(text);
  };
}
