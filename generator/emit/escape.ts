/**
 * Escaping for each place spec text can land in generated TypeScript. Templates reach spec data
 * only through these (as Handlebars helpers); Handlebars' own HTML escaping is switched off.
 */
import { isBareKey } from '../../model/identifiers.ts';

/** JSON text with the two line terminators JSON allows but older JS parsers did not. */
export function jsonLiteral(value: unknown, indent?: number): string {
  const text = JSON.stringify(value === undefined ? null : value, null, indent);
  return text
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/<\/(script)/gi, '<\\/$1');
}

/** A quoted TypeScript string literal. */
export function stringLiteral(value: unknown): string {
  return jsonLiteral(String(value ?? ''));
}

/** Text inside a template literal (between backticks). */
export function templateText(value: unknown): string {
  return String(value ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/`/g, '\\`')
    .replace(/\$\{/g, '\\${')
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** An object property key: bare when it is a plain identifier, else a string literal. */
export function propertyKey(value: unknown): string {
  const name = String(value ?? '');
  return isBareKey(name) ? name : stringLiteral(name);
}

/** An identifier the normaliser produced; anything else is a bug that must not reach output. */
export function identifier(value: unknown): string {
  const name = String(value ?? '');
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
    throw new Error(`refusing to emit ${JSON.stringify(name)} as an identifier`);
  }
  return name;
}

/** Text for a `//` comment: one line, no terminators. */
export function lineComment(value: unknown): string {
  return String(value ?? '')
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .trim();
}

/** Text for the body of a JSDoc block: no `*\/`, each line prefixed by the caller's ` * `. */
export function jsdocText(value: unknown): string {
  return String(value ?? '')
    .replace(/\*\//g, '*\\/')
    .replace(/\r\n?|\u2028|\u2029/g, '\n')
    .replace(/@/g, '\\@')
    .trim()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n * ');
}

/** Markdown inline text (one line): no HTML, links, emphasis or table cells from spec text. */
export function markdownText(value: unknown): string {
  return String(value ?? '')
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}

/** A Markdown code span holding any text (fence longer than any backtick run inside; `|` escaped for tables). */
export function markdownCode(value: unknown): string {
  const text = String(value ?? '')
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * The description author's Markdown on one line (a paragraph, or a table cell with `cell`): inline
 * code and emphasis kept, line breaks joined, raw HTML neutralised, and nothing at its start that
 * would open a block (a heading, list, quote).
 */
export function markdownInline(value: unknown, cell = false): string {
  const text = String(value ?? '')
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .trim()
    .replace(/</g, '&lt;')
    .replace(/^([#>+*-]|\d+[.)])/, (m) =>
      /^\d/.test(m) ? m.replace(/([.)])$/, '\\$1') : `\\${m}`,
    );
  return cell ? text.replace(/\|/g, '\\|') : text;
}

/** A Markdown block written by the description's author: kept as Markdown, raw HTML neutralised. */
export function markdownBlock(value: unknown): string {
  return String(value ?? '')
    .replace(/\r\n?|\u2028|\u2029/g, '\n')
    .replace(/</g, '&lt;')
    .trim();
}
