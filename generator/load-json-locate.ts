/**
 * Where a JSON pointer's value starts in a JSON text, as line and column (1-based, as the YAML
 * parser's LineCounter counts them). A description's findings name their lines; for JSON text the
 * YAML parser's positions cost a whole second parse of the text (Box's 1.4 MB: 0.7 s of CPU, GitHub's
 * 13 MB far more), while a finding needs only the containers on its pointer's way. So each container
 * on the way is scanned once, when first crossed, and the offsets of its members kept.
 *
 * The text must be valid JSON without repeated keys (load-text.ts checks both before).
 */
import { splitPointer } from '../model/pointer.ts';

type Members = Map<string, number>;

export function jsonLocator(
  text: string,
): (pointer: string) => { line: number; column: number } | undefined {
  // Container offset -> its members' value offsets, by key (objects) or index (arrays).
  const scanned = new Map<number, Members>();
  let lineStarts: number[] | undefined;
  const root = skipSpace(text, 0);
  return (pointer) => {
    let at = root;
    for (const token of splitPointer(pointer)) {
      const open = text.charCodeAt(at);
      if (open !== OPEN_OBJECT && open !== OPEN_ARRAY) return undefined;
      let members = scanned.get(at);
      if (!members) scanned.set(at, (members = scanContainer(text, at)));
      const next = open === OPEN_OBJECT ? members.get(token) : members.get(arrayIndex(token));
      if (next === undefined) return undefined;
      at = next;
    }
    lineStarts ??= startsOfLines(text);
    return position(lineStarts, at);
  };
}

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * An array element's key as the YAML locator read a token: `Number(token)` (so `""` is 0 and
 * `"1.0"` is 1), and nothing when that is not an index.
 */
function arrayIndex(token: string): string {
  const n = Number(token);
  return Number.isInteger(n) && n >= 0 ? String(n) : '';
}

/** The members of the object or array opening at `at`: key (or index) -> value offset. */
function scanContainer(text: string, at: number): Members {
  const members: Members = new Map();
  const isObject = text.charCodeAt(at) === OPEN_OBJECT;
  let i = skipSpace(text, at + 1);
  for (let index = 0; ; index++) {
    const c = text.charCodeAt(i);
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY || Number.isNaN(c)) return members;
    let key = String(index);
    if (isObject) {
      const end = stringEnd(text, i);
      const raw = text.slice(i + 1, end - 1);
      key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
      i = skipSpace(text, skipSpace(text, end) + 1); // past the colon
    }
    if (!members.has(key)) members.set(key, i);
    i = skipSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) === COMMA) i = skipSpace(text, i + 1);
  }
}

/** The offset just past the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let j = text.indexOf('"', at + 1);
  while (j > 0 && isEscaped(text, j)) j = text.indexOf('"', j + 1);
  return j < 0 ? text.length : j + 1;
}

function isEscaped(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === BACKSLASH) n++;
  return n % 2 === 1;
}

/** The offset just past the value starting at `at` (strings skipped whole, so brackets in them are not counted). */
function valueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return stringEnd(text, at);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    let i = at;
    while (i < text.length && !isDelimiter(text.charCodeAt(i))) i++;
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) i = stringEnd(text, i) - 1;
    else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  return text.length;
}

const isDelimiter = (c: number) =>
  c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c);

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, at: number): number {
  let i = at;
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

function startsOfLines(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset (the last line start at or before it). */
function position(starts: number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offset < starts[mid]!) high = mid;
    else low = mid + 1;
  }
  return { line: low, column: offset - starts[low - 1]! + 1 };
}
