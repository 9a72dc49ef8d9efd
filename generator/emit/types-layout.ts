/**
 * generated/types.ts in prettier's layout without running prettier over all of it.
 *
 * openapi-typescript's text comes from the TypeScript printer: 4-space indentation, double
 * quotes, one member per line, object types always expanded. For almost every line, prettier's
 * output is that line re-indented by 2 with its strings in the configured quotes, and each JSDoc
 * comment re-indented with its lines trimmed; those lines are rewritten here directly. A member
 * whose layout prettier decides (a line over the print width, a union or intersection spanning
 * lines, anything not recognised below) is a "chunk" that goes through prettier, all chunks of
 * one depth in one call, at the width left at that depth. On a 150,000-line file this formats a
 * few per cent of the text instead of all of it; test/generator/types-layout.test.ts holds the
 * result byte-identical to prettier on the whole file. Text this module does not expect (tabs,
 * other comments, options it does not model) makes `layoutTypes` return undefined: the caller
 * then formats the whole file with prettier.
 */

export type StringWidth = (text: string) => number;

export interface LayoutOptions {
  printWidth: number;
  singleQuote: boolean;
  measure: StringWidth;
}

/** Formats `text` (a set of members or declarations) with prettier at this print width. */
export type FormatChunks = (text: string, printWidth: number) => Promise<string>;

class Unexpected extends Error {}

const SEPARATOR = 'dataapiChunkSeparator: 0;';
const WRAPPER = 'interface DataapiChunks {';

/** Leading spaces of a line (a tab anywhere in the indentation is unexpected). */
function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  if (line.charCodeAt(n) === 9) throw new Unexpected('tab');
  return n;
}

/** The quote prettier picks for a string's raw content: the preferred one unless it is rarer. */
function quoteFor(raw: string, singleQuote: boolean): string {
  const preferred = singleQuote ? "'" : '"';
  const other = singleQuote ? '"' : "'";
  const count = (q: string) => raw.split(q).length - 1;
  return count(preferred) > count(other) ? other : preferred;
}

/** A string's raw content re-quoted as prettier re-quotes it (needless escapes dropped). */
function requote(raw: string, quote: string): string {
  const other = quote === '"' ? "'" : '"';
  const body = raw.replace(/\\(.)|(["'])/gsu, (_m, escaped: string | undefined, bare?: string) => {
    if (escaped === other) return escaped;
    if (bare === quote) return '\\' + bare;
    if (bare) return bare;
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/.test(escaped as string)
      ? (escaped as string)
      : '\\' + (escaped as string);
  });
  return quote + body + quote;
}

/**
 * One line of code (no comment) with its strings re-quoted; undefined when the line holds
 * something whose printing prettier may change (comments, template literals, numbers in exponent
 * or decimal form, unbalanced strings).
 */
function requoteLine(line: string, singleQuote: boolean): string | undefined {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      if (j >= line.length) return undefined;
      const raw = line.slice(i + 1, j);
      out += requote(raw, quoteFor(raw, singleQuote));
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < line.length && line[j] !== '"' && line[j] !== "'") j++;
    const code = line.slice(i, j);
    if (/[`/\\\t]|\d[.eExXnN_]|\.\d/.test(code)) return undefined;
    out += code;
    i = j;
  }
  return out;
}

/** Opening lines whose `{` prettier keeps on the line (an expanded object type follows). */
const KEY = String.raw`(?:[A-Za-z_$][\w$]*|\d+|"(?:[^"\\]|\\.)*"|\[[A-Za-z_$][\w$]*: string\])`;
const OPENER = new RegExp(
  String.raw`^(?:export interface [A-Za-z_$][\w$]*|(?:readonly )?${KEY}\??:) \{$`,
);
const CLOSERS = new Set(['}', '};', '}[];', '} | null;']);

interface Chunk {
  /** Indentation of the member in the input (4 per level) and in the output (spaces). */
  raw: number;
  pad: number;
  lines: string[];
  /** Index in the output where the formatted chunk goes. */
  at: number;
}

class Layout {
  readonly out: string[] = [];
  readonly chunks: Chunk[] = [];
  constructor(
    private readonly lines: string[],
    private readonly options: LayoutOptions,
  ) {}

  private line(i: number): string {
    return this.lines[i] as string;
  }

  /**
   * The last line of the member starting at `i`: its deeper lines, and the lines at its own
   * indentation that close what it opened (`}`, `};`, `} | {`, ...).
   */
  private endOf(i: number): number {
    const k = indentOf(this.line(i));
    let open = /[{([]$/.test(this.line(i));
    let end = i;
    while (end + 1 < this.lines.length) {
      const next = this.line(end + 1);
      const n = indentOf(next);
      if (n > k) end++;
      else if (n === k && open && /^[}\])]/.test(next.slice(n))) {
        end++;
        open = /[{([]$/.test(next);
      } else break;
    }
    return end;
  }

  /** A JSDoc comment from line `i`: prettier re-indents it and trims its lines. */
  private comment(i: number, pad: string): number {
    const first = this.line(i).trim();
    if (first.endsWith('*/')) {
      this.out.push(pad + first);
      return i;
    }
    this.out.push(pad + first);
    for (let j = i + 1; j < this.lines.length; j++) {
      const line = this.line(j);
      const close = line.indexOf('*/');
      if (close >= 0 && close !== line.length - 2) throw new Unexpected('text after */');
      const body = close >= 0 ? line.slice(0, close).trimStart() : line.trim();
      if (close < 0 && !body.startsWith('*')) throw new Unexpected('comment line without *');
      this.out.push(pad + ' ' + body + (close >= 0 ? '*/' : ''));
      if (close >= 0) return j;
    }
    throw new Unexpected('unclosed comment');
  }

  /** Lines `from`..`to` (inclusive): members indented by `raw` in the input, `pad` in the output. */
  block(from: number, to: number, raw: number, pad: number): void {
    const spaces = ' '.repeat(pad);
    for (let i = from; i <= to; i++) {
      const line = this.line(i);
      if (indentOf(line) !== raw) throw new Unexpected(`indentation ${indentOf(line)} for ${raw}`);
      const text = line.slice(raw);
      if (text === '') throw new Unexpected('blank line');
      if (text.startsWith('//') || (text.startsWith('/*') && text.endsWith('*/'))) {
        this.out.push(spaces + text.trimEnd()); // one-line comments stay as written
        continue;
      }
      if (text.startsWith('/*')) {
        if (!text.startsWith('/**')) throw new Unexpected('block comment');
        i = this.comment(i, spaces);
        continue;
      }
      i = this.member(i, this.endOf(i), raw, pad);
    }
  }

  private fits(text: string, pad: number): boolean {
    return pad + this.options.measure(text) <= this.options.printWidth;
  }

  /** The lines between `i` and `end` at the member's own indentation (`} & {`, `} | {`). */
  private joints(i: number, end: number, raw: number): number[] {
    const joints: number[] = [];
    for (let j = i + 1; j < end; j++) if (indentOf(this.line(j)) <= raw) joints.push(j);
    return joints;
  }

  private member(i: number, end: number, raw: number, pad: number): number {
    const spaces = ' '.repeat(pad);
    const first = this.line(i).slice(raw);
    const requoted = requoteLine(first, this.options.singleQuote);
    if (end === i && requoted?.endsWith(';') && this.fits(requoted, pad)) {
      this.out.push(spaces + requoted);
      return i;
    }
    const last = this.line(end).slice(raw);
    const joints = this.joints(i, end, raw);
    const parts = [i, ...joints, end];
    const shaped =
      end > i + 1 &&
      requoted !== undefined &&
      OPENER.test(first) && // prettier keeps `key: {` on one line however long the key
      parts.every((j, n) => n === 0 || j > (parts[n - 1] as number) + 1); // no empty object
    const joint = (text: string) => joints.every((j) => this.line(j).slice(raw) === text);
    if (shaped && CLOSERS.has(last) && joint('} & {')) {
      // `key: {` ... `};`, or an intersection of expanded objects: prettier prints these as the
      // TypeScript printer does, re-indented.
      this.out.push(spaces + requoted);
      for (let n = 1; n < parts.length; n++) {
        this.block((parts[n - 1] as number) + 1, (parts[n] as number) - 1, raw + 4, pad + 2);
        this.out.push(spaces + this.line(parts[n] as number).slice(raw));
      }
      return end;
    }
    if (
      shaped &&
      joints.length > 0 &&
      last === '};' &&
      joint('} | {') &&
      !first.startsWith('export')
    ) {
      // A union of expanded objects: `key:`, then each object on its own `| {` line, its members
      // aligned two spaces further in.
      this.out.push(spaces + requoted.slice(0, -2));
      for (let n = 1; n < parts.length; n++) {
        this.out.push(`${spaces}  | {`);
        this.block((parts[n - 1] as number) + 1, (parts[n] as number) - 1, raw + 4, pad + 6);
        this.out.push(`${spaces}    }${n === parts.length - 1 ? ';' : ''}`);
      }
      return end;
    }
    this.chunks.push({ raw, pad, lines: this.lines.slice(i, end + 1), at: this.out.length });
    this.out.push('');
    return end;
  }
}

/** Prettier over the chunks of one indentation, in one call; the formatted text of each. */
async function formatChunks(
  chunks: Chunk[],
  pad: number,
  options: LayoutOptions,
  format: FormatChunks,
): Promise<string[]> {
  const body = chunks.map((c) => c.lines.map((l) => l.slice(c.raw)).join('\n'));
  if (pad === 0) {
    // Top-level declarations, one call each (rare: a long `export type`).
    return Promise.all(
      body.map(async (text) => (await format(text, options.printWidth)).replace(/\n$/, '')),
    );
  }
  // Members of a wrapper interface sit 2 spaces in: the width left is what `pad` leaves.
  const text = `${WRAPPER}\n${body.join(`\n${SEPARATOR}\n`)}\n}\n`;
  const printed = (await format(text, options.printWidth - (pad - 2))).split('\n');
  if (printed[0] !== WRAPPER || printed.at(-2) !== '}' || printed.at(-1) !== '')
    throw new Unexpected('wrapper');
  const extra = ' '.repeat(pad - 2);
  const parts: string[][] = [[]];
  for (const line of printed.slice(1, -2)) {
    if (line === `  ${SEPARATOR}`) parts.push([]);
    else (parts.at(-1) as string[]).push(line === '' ? '' : extra + line);
  }
  if (parts.length !== chunks.length) throw new Unexpected('chunk count');
  return parts.map((p) => p.join('\n'));
}

/**
 * openapi-typescript's text in prettier's layout (with a final newline), or undefined when the
 * text is not the printer output this module knows.
 */
export async function layoutTypes(
  text: string,
  options: LayoutOptions,
  format: FormatChunks,
): Promise<{ text: string; chunkLines: number } | undefined> {
  if (text.includes('dataapiChunk') || text.includes('\r')) return undefined;
  try {
    const lines = text.replace(/\n+$/, '').split('\n');
    const layout = new Layout(lines, options);
    layout.block(0, lines.length - 1, 0, 0);
    const byPad = new Map<number, Chunk[]>();
    for (const c of layout.chunks) byPad.set(c.pad, [...(byPad.get(c.pad) ?? []), c]);
    for (const [pad, chunks] of byPad) {
      const printed = await formatChunks(chunks, pad, options, format);
      chunks.forEach((c, n) => (layout.out[c.at] = printed[n] as string));
    }
    const chunkLines = layout.chunks.reduce((a, c) => a + c.lines.length, 0);
    return { text: layout.out.join('\n') + '\n', chunkLines };
  } catch (err) {
    if (err instanceof Unexpected) return undefined;
    throw err;
  }
}
