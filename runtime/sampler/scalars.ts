/**
 * Arbitraries of scalar schemas: strings (pattern through fast-check's stringMatching, formats,
 * lengths), integers and numbers (bounds, multipleOf; int64 bounds clamped to the safe integer
 * range, so no value overflows a double), for the sampler.
 */
import fc from 'fast-check';
import type { Obj } from 'dataapi/model';

export interface ScalarOptions {
  /** 'readable': lower-case words and small numbers (mock answers); 'wide': the whole range (fuzzing). */
  range: 'readable' | 'wide';
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = `${LETTERS}0123456789`;
const num = (s: Obj, k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);

function lengths(s: Obj, fallbackMax: number): { min: number; max: number } {
  const min = Math.max(0, Math.ceil(num(s, 'minLength') ?? 0));
  const declared = num(s, 'maxLength');
  // Long enough to look like data, short enough to send; never past the declared maximum.
  const max = Math.max(min, Math.min(declared ?? Infinity, min + fallbackMax));
  return { min, max };
}

const word = (o: ScalarOptions, min = 3, max = 10) =>
  o.range === 'wide'
    ? fc.string({ unit: 'grapheme', minLength: min, maxLength: max })
    : fc.string({ unit: fc.constantFrom(...LETTERS), minLength: min, maxLength: max });

const date = fc
  .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2030, 11, 31) })
  .map((ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'));

/** Strings of the formats OpenAPI descriptions use; undefined: no generator for that format. */
function formatted(format: string): fc.Arbitrary<string> | undefined {
  const w = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 3, maxLength: 10 });
  switch (format) {
    case 'date-time':
      return date;
    case 'date':
      return date.map((d) => d.slice(0, 10));
    case 'time':
      return date.map((d) => d.slice(11));
    case 'email':
    case 'idn-email':
      return w.map((x) => `${x}@example.com`);
    case 'uri':
    case 'url':
    case 'iri':
      return w.map((x) => `https://example.com/${x}`);
    case 'uri-reference':
    case 'iri-reference':
    case 'uri-template':
      return w.map((x) => `/${x}`);
    case 'hostname':
    case 'idn-hostname':
      return w.map((x) => `${x}.example.com`);
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.constantFrom('2001:db8::1', '2001:db8::2', '::1');
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'byte':
      return w.map((x) => Buffer.from(x).toString('base64'));
    case 'int32':
    case 'int64':
    case 'integer':
    case 'decimal':
      return fc.integer({ min: 0, max: 1_000_000 }).map(String);
    case 'duration':
      return fc.integer({ min: 1, max: 90 }).map((n) => `P${n}D`);
    case 'json-pointer':
      return w.map((x) => `/${x}`);
    case 'regex':
      return w.map((x) => `^${x}$`);
    default:
      return undefined;
  }
}

/** A JavaScript RegExp for a JSON Schema pattern (anchored, so the sample is the match itself). */
export function patternRegExp(pattern: string): RegExp | undefined {
  const anchored = pattern.startsWith('^') && pattern.endsWith('$') ? pattern : `^(?:${pattern})$`;
  for (const source of [anchored, pattern]) {
    for (const flags of ['u', '']) {
      try {
        return new RegExp(source, flags);
      } catch {
        // not valid in this mode: try the next
      }
    }
  }
  return undefined;
}

export function stringArbitrary(
  s: Obj,
  patterns: string[],
  o: ScalarOptions,
): fc.Arbitrary<string> {
  const { min, max } = lengths(s, o.range === 'wide' ? 64 : 12);
  const regexes = patterns.map(patternRegExp).filter((r): r is RegExp => r !== undefined);
  const [first, ...others] = regexes;
  if (first) {
    // No filter (a filter that never passes never ends): the draw validates and retries.
    void others;
    return fc.stringMatching(first, { maxLength: Math.max(max, 64) });
  }
  const format = typeof s.format === 'string' ? formatted(s.format) : undefined;
  if (format) return format;
  const low = Math.max(min, num(s, 'minLength') === undefined && o.range === 'readable' ? 3 : 0);
  return word(o, Math.min(low, max), max);
}

const SAFE = Number.MAX_SAFE_INTEGER;

/** Integer bounds of a schema, inside the safe integer range. */
export function integerBounds(s: Obj, o: ScalarOptions): { min: number; max: number } {
  const xmin = num(s, 'exclusiveMinimum');
  const xmax = num(s, 'exclusiveMaximum');
  let min = Math.max(
    num(s, 'minimum') !== undefined ? Math.ceil(num(s, 'minimum')!) : -Infinity,
    xmin !== undefined ? Math.floor(xmin) + 1 : -Infinity,
  );
  let max = Math.min(
    num(s, 'maximum') !== undefined ? Math.floor(num(s, 'maximum')!) : Infinity,
    xmax !== undefined ? Math.ceil(xmax) - 1 : Infinity,
  );
  const span = o.range === 'wide' ? (s.format === 'int32' ? 2 ** 31 : SAFE) : 1000;
  if (min === -Infinity && max === Infinity) {
    min = o.range === 'wide' ? -span : 1;
    max = span;
  } else if (min === -Infinity) min = max - span;
  else if (max === Infinity) max = min + span;
  // Bounds past the safe integers (int64): values stay inside them, or at the bound itself
  // when the whole range lies beyond (an exact double, never a rounded neighbour).
  if (min > SAFE) return { min, max: min };
  if (max < -SAFE) return { min: max, max };
  return { min: Math.max(-SAFE, min), max: Math.min(SAFE, max) };
}

export function integerArbitrary(s: Obj, o: ScalarOptions): fc.Arbitrary<number> {
  const { min, max } = integerBounds(s, o);
  const step = num(s, 'multipleOf');
  if (step !== undefined && step > 0 && Number.isInteger(step)) {
    const lo = Math.ceil(min / step);
    const hi = Math.floor(max / step);
    if (lo <= hi) return fc.integer({ min: lo, max: hi }).map((k) => k * step);
  }
  if (min === max || !Number.isSafeInteger(min) || !Number.isSafeInteger(max))
    return fc.constant(min);
  return fc.integer({ min: Math.min(min, max), max: Math.max(min, max) });
}

export function numberArbitrary(s: Obj, o: ScalarOptions): fc.Arbitrary<number> {
  const step = num(s, 'multipleOf');
  const xmin = num(s, 'exclusiveMinimum');
  const xmax = num(s, 'exclusiveMaximum');
  const min = num(s, 'minimum');
  const max = num(s, 'maximum');
  if (step !== undefined && step > 0) {
    const decimals = (String(step).split('.')[1] ?? '').length;
    const scaled = (v: number | undefined) => (v === undefined ? undefined : v / step);
    const bounds = integerBounds(
      {
        minimum: scaled(min),
        maximum: scaled(max),
        exclusiveMinimum: scaled(xmin),
        exclusiveMaximum: scaled(xmax),
      },
      o,
    );
    if (bounds.min <= bounds.max)
      return fc.integer(bounds).map((k) => Number((k * step).toFixed(decimals)));
  }
  // Hundredths read well; a range too narrow for any takes a double inside it.
  const cents = (v: number | undefined) =>
    v === undefined ? undefined : Math.max(-1e13, Math.min(1e13, v)) * 100;
  const bounds = integerBounds(
    {
      minimum: cents(min),
      maximum: cents(max),
      exclusiveMinimum: cents(xmin),
      exclusiveMaximum: cents(xmax),
    },
    o,
  );
  if (bounds.min <= bounds.max) return fc.integer(bounds).map((c) => c / 100);
  const lo = Math.max(min ?? -1e6, xmin ?? -1e6);
  const hi = Math.min(max ?? 1e6, xmax ?? 1e6);
  return fc.double({
    min: lo,
    max: hi,
    minExcluded: xmin !== undefined && xmin >= lo,
    maxExcluded: xmax !== undefined && xmax <= hi,
    noNaN: true,
    noDefaultInfinity: true,
  });
}
