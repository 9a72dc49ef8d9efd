/** Safe identifiers and file stems derived from spec text (names, operationIds, tags). */

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with as implements interface let package private protected public static ' +
    'yield await any boolean number string symbol type from of constructor prototype __proto__ ' +
    'undefined NaN Infinity arguments eval object never unknown async get set declare keyof readonly'
  ).split(' '),
);

/** Splits text into words on anything that is not a letter or digit, and on camel humps. */
function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/[^A-Za-z0-9]/g, ''))
    .filter(Boolean);
}

/** A camelCase identifier that is valid in TypeScript and never a reserved word. */
export function toIdentifier(text: string, fallback = 'item'): string {
  const ws = words(text);
  let id = ws
    .map((w, i) =>
      i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join('');
  if (id === '') id = fallback;
  if (/^[0-9]/.test(id)) id = '_' + id;
  if (RESERVED.has(id)) id = id + '_';
  return id;
}

/** PascalCase variant, for type names. */
export function toTypeName(text: string, fallback = 'Item'): string {
  const id = toIdentifier(text, fallback).replace(/^_+/, '');
  const pascal = id.charAt(0).toUpperCase() + id.slice(1);
  return /^[0-9]/.test(pascal) ? 'T' + pascal : pascal;
}

/** Names Windows reserves for devices, whatever the extension. */
const DEVICE_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * kebab-case file stem: only [a-z0-9-], never empty, never a path, at most 80 characters.
 * A longer stem is cut and suffixed with a hash of the whole text, so two long names that
 * share a prefix still get different files.
 */
export function toFileStem(text: string, fallback = 'item'): string {
  let stem = words(text)
    .map((w) => w.toLowerCase())
    .join('-');
  if (stem.length > 80) stem = `${stem.slice(0, 71).replace(/-+$/, '')}-${fnv1a(text)}`;
  if (stem === '') return fallback;
  return DEVICE_NAMES.test(stem) ? `${stem}-` : stem;
}

/** Whether a property name can be written bare in TypeScript. */
export function isBareKey(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && name !== '__proto__';
}

/** Allocates unique names: the second `foo` becomes `foo2`. */
export class NameAllocator {
  private readonly used = new Set<string>();
  take(name: string): string {
    let candidate = name;
    for (let n = 2; this.used.has(candidate.toLowerCase()); n++) candidate = `${name}${n}`;
    this.used.add(candidate.toLowerCase());
    return candidate;
  }
}

/** FNV-1a (32 bits) as 8 hex digits: a stable short tag, without Node's crypto (the browser client uses this module). */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
