/**
 * Escaping for the places report text lands. Everything a report shows can come from the target
 * (response excerpts, headers, error text) or the spec, so it is untrusted: it is escaped for XML,
 * HTML or the terminal at the sink, never trusted to be clean.
 */

/**
 * Characters XML 1.0 forbids (C0 controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF),
 * plus DEL and C1 controls (terminal escapes), shown as visible `\uXXXX` text instead of being dropped:
 * a reader sees that the target sent them.
 */
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line of terminal text: controls made visible, line breaks as `\n`. */
export function oneLine(text: string): string {
  return visible(text)
    .replace(/\r\n|\r|\n|\u2028|\u2029/g, '\\n')
    .replace(/\t/g, ' ');
}

/** Text content of an XML element. */
export function xmlText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A double- or single-quoted XML attribute value (line breaks kept as character references). */
export function xmlAttr(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** HTML text or a quoted attribute value. */
export function html(text: string | number | undefined): string {
  return visible(String(text ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
