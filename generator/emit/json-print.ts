/**
 * JSON in exactly prettier's layout, without prettier. generated/model.json is megabytes for a large
 * description, and running prettier over it cost more time and memory (1.1 GB at 2,000 operations)
 * than the rest of generation; this printer gives the same bytes in one pass
 * (test/generator/json-print.test.ts holds it to prettier's output).
 *
 * Prettier's JSON layout: a non-empty object is always expanded (one property per line, as its
 * source has a newline after `{`); an array is printed on one line when that line fits the print
 * width (counting what follows it on the line: the `,`) and holds no non-empty object, unless all
 * its (two or more) elements are arrays, or all objects, of two or more items; otherwise one
 * element per line, except arrays of numbers, which are filled (as many per line as fit). Widths
 * are measured as prettier measures them (wide East Asian characters count two), by its own
 * function, passed in. Numbers are written as prettier writes them (`1e21`, not `1e+21`).
 */

export type StringWidth = (text: string) => number;

const pad = (n: number) => ' '.repeat(n);

/** One-line form of a value, or undefined when it must break (it holds a non-empty object). */
function flat(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const element of value) {
      const text = flat(element);
      if (text === undefined) return undefined;
      parts.push(text);
    }
    return `[${parts.join(', ')}]`;
  }
  if (isObject(value)) return Object.keys(value).length === 0 ? '{}' : undefined;
  return scalar(value);
}

const scalar = (value: unknown) =>
  typeof value === 'number' ? String(value).replace('e+', 'e') : (JSON.stringify(value) ?? 'null');

/** Prettier breaks an array whose elements are all arrays, or all objects, of 2+ items. */
function mustBreak(value: unknown[]): boolean {
  if (value.length < 2) return false;
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : isObject(v) ? 'object' : undefined);
  const first = kind(value[0]);
  return (
    first !== undefined &&
    value.every(
      (v) =>
        kind(v) === first && (Array.isArray(v) ? v.length : Object.keys(v as object).length) > 1,
    )
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Writes `value`, whose first character lands at column `lead` of a line indented by `indent` and
 * is followed on that line by `trail` characters, onto `out` (joined once at the end: building
 * each level's text from its children's would copy a deep document's text once per level).
 */
function print(
  out: Out,
  value: unknown,
  indent: number,
  lead: number,
  trail: number,
  width: number,
  measure: StringWidth,
): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return out.push('[]');
    const oneLine = mustBreak(value) ? undefined : flat(value);
    if (oneLine !== undefined && lead + measure(oneLine) + trail <= width)
      return void out.push(oneLine);
    const inner = indent + 2;
    if (value.length > 1 && value.every((v) => typeof v === 'number')) {
      const items = value.map((v, i) => scalar(v) + (i < value.length - 1 ? ',' : ''));
      return void out.push(`[\n${fill(items, inner, width)}\n${pad(indent)}]`);
    }
    const innerPad = pad(inner);
    out.push('[\n');
    for (let i = 0; i < value.length; i++) {
      out.push(innerPad);
      print(out, value[i], inner, inner, i < value.length - 1 ? 1 : 0, width, measure);
      out.push(i < value.length - 1 ? ',\n' : '\n');
    }
    return void out.push(pad(indent), ']');
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return void out.push('{}');
    const inner = indent + 2;
    const innerPad = pad(inner);
    out.push('{\n');
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      const key = `${JSON.stringify(k)}: `;
      out.push(innerPad, key);
      const last = i === keys.length - 1;
      print(out, value[k], inner, inner + measure(key), last ? 0 : 1, width, measure);
      out.push(last ? '\n' : ',\n');
    }
    return void out.push(pad(indent), '}');
  }
  out.push(scalar(value));
}

/** The text written so far (appends make a rope, flattened once when the text is read). */
class Out {
  text = '';
  push(...parts: string[]): void {
    for (const part of parts) this.text += part;
  }
}

/** Prettier's fill: items joined by a space while the line fits, else on the next line. */
function fill(items: string[], indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line === '') line = pad(indent) + item;
    else if (line.length + 1 + item.length <= width) line += ' ' + item;
    else {
      lines.push(line);
      line = pad(indent) + item;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** The value as prettier would format its JSON text (parser `json`), with a final newline. */
export function printJson(value: unknown, measure: StringWidth, width = 100): string {
  const out = new Out();
  print(out, value, 0, 0, 0, width, measure);
  out.push('\n');
  return out.text;
}
