/**
 * Whether a header value reaches the server as the suite wrote it. fetch (undici's Headers, as
 * the Fetch standard says) strips leading and trailing HTTP whitespace from a value and refuses
 * one holding a line break or NUL: a value drawn with either is another value on the wire, or
 * no request at all (corpus amazonaws.com/chime-sdk-messaging: `arn:…:: ` arrived as `arn:…::`,
 * which the header's own pattern refuses; apple.com/sirikit-cloud-media's User-Agent). A character
 * above U+00FF is no byte, and fetch refuses the whole request (amazonaws.com/omics's `[\S]+`).
 */
import { valueText } from './path-values.ts';

export function headerCarries(value: unknown): boolean {
  return !/^[ \t]|[ \t]$|[\r\n\0]|[^\0-\xff]/.test(valueText(value));
}
