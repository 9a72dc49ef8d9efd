/**
 * JSON pointers (RFC 6901): the one place that escapes and unescapes their tokens (`~` as `~0`,
 * `/` as `~1`). Findings, errors and the model's `$ref`s all name places this way.
 *
 * Two spellings exist. A plain pointer (`/paths/~1rates~1100%/get`) is taken as written: a `%`
 * in it is just a character of a key. The URI-fragment form (`#/paths/~1rates~1100%25/get`, what
 * a `$ref` or an `operationRef` holds) is percent-encoded (RFC 6901 section 6) and is decoded.
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

/** A URI fragment whose percent-encoding is broken (a `%` not followed by two hex digits). */
export class PointerError extends Error {
  constructor(readonly pointer: string) {
    super(
      `malformed JSON pointer ${JSON.stringify(pointer)}: a URI fragment must percent-encode "%" as "%25"`,
    );
    this.name = 'PointerError';
  }
}

/**
 * The plain pointer a URI fragment stands for: `#/a%20b` -> `/a b`. Throws PointerError when its
 * percent-encoding is malformed.
 */
export function fragmentToPointer(fragment: string): string {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  try {
    return decodeURIComponent(body);
  } catch {
    throw new PointerError(fragment);
  }
}

/**
 * The tokens of a pointer, unescaped. A plain pointer is read as written; one in the URI-fragment
 * form (`#/a/b`) is percent-decoded first. `''`, `'/'` and `'#'` are the whole document.
 */
export function splitPointer(pointer: string): string[] {
  const plain = pointer.startsWith('#') ? fragmentToPointer(pointer) : pointer;
  if (plain === '' || plain === '/') return [];
  return plain.replace(/^\//, '').split('/').map(unescapeToken);
}
