/**
 * Base64 of UTF-8 text with the web platform's btoa/atob, not Node's Buffer: the packed client
 * (which carries redaction and credentials) runs in browsers too, where there is no Buffer.
 */

export function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The UTF-8 text of base64 (or base64url), as leniently as Buffer reads it: padding optional, a
 * dangling last character ignored, invalid UTF-8 as U+FFFD. Not base64 at all: ''.
 */
export function fromBase64(b64: string): string {
  let s = b64.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (s.length % 4 === 1) s = s.slice(0, -1);
  let binary: string;
  try {
    binary = atob(s);
  } catch {
    return '';
  }
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The length of text in UTF-8 bytes. */
export const utf8Length = (text: string): number => new TextEncoder().encode(text).length;
