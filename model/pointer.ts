/**
 * JSON pointers (RFC 6901): the one place that escapes and unescapes their tokens (`~` as `~0`,
 * `/` as `~1`). Findings, errors and the model's `$ref`s all name places this way.
 */

/** One reference token, escaped. */
export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One reference token, unescaped. */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The pointer of a path of tokens: `('paths', '/a', 'get')` -> `/paths/~1a/get`. */
export function joinPointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => '/' + escapeToken(t)).join('');
}

/**
 * The tokens of a pointer, unescaped. Accepts the URI fragment form too (`#/a/b`, with
 * percent-encoding); `''` and `'/'` are the whole document.
 */
export function splitPointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^#?\//, '')
    .split('/')
    .map((t) => unescapeToken(decodeURIComponent(t)));
}
