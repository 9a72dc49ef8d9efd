/**
 * Arbitraries of scalar schemas: strings (pattern through fast-check's stringMatching, formats,
 * lengths), integers and numbers (bounds, multipleOf; int64 bounds clamped to the safe integer
 * range, so no value overflows a double), for the sampler.
 */
import fc from 'fast-check';
import type { Obj } from 'dataapi/model';
import { clampRoom, classEnd, minMatchLength } from './regex-length.ts';

export interface ScalarOptions {
  /** 'readable': lower-case words and small numbers (mock answers); 'wide': the whole range (fuzzing). */
  range: 'readable' | 'wide';
  /** Wide strings of printable ASCII only, no space at either end (header values). */
  ascii?: boolean;
  /** Longest wide string, whatever the declared maximum (URL parts; default 1000). */
  maxStringLength?: number;
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

/**
 * Characters of wide strings: mostly printable ASCII (the separators servers trip on: `,;&=/?#%`,
 * quotes, brackets), some other Unicode, each one code point (so JSON Schema lengths count them
 * one by one). Shrinking goes towards `a`.
 */
const PRINTABLE = `${LETTERS}${LETTERS.toUpperCase()}0123456789 ,.;:&=/?#%+-_'"<>()[]{}!*@$^|~\\\``;
const printable = fc.constantFrom(...PRINTABLE);
/** One code point of a range (read back for shrinking a value fast-check did not generate). */
const codePoint = (lo: number, hi: number) =>
  fc.integer({ min: lo, max: hi }).map(
    (c) => String.fromCodePoint(c),
    (v) => {
      const c = typeof v === 'string' && [...v].length === 1 ? v.codePointAt(0) : undefined;
      if (c === undefined || c < lo || c > hi) throw new Error('not a code point of the range');
      return c;
    },
  );

const wideChar = fc.oneof(
  // Cross shrink: a character of another kind shrinks to a printable one, then towards `a`.
  { withCrossShrink: true },
  { weight: 8, arbitrary: printable },
  { weight: 1, arbitrary: codePoint(0xa0, 0xd7ff) },
  { weight: 1, arbitrary: codePoint(0x1f300, 0x1faff) },
);

/**
 * Strings of exactly the maximum length (a boundary value) that shrink like any string of the
 * range: shorter and plainer, as fast-check shrinks a value it did not generate.
 */
class AtMaximum extends fc.Arbitrary<string> {
  constructor(
    private readonly exact: fc.Arbitrary<string>,
    private readonly range: fc.Arbitrary<string>,
  ) {
    super();
  }
  generate(mrng: fc.Random, bias: number | undefined): fc.Value<string> {
    return new fc.Value(this.exact.generate(mrng, bias).value, undefined);
  }
  canShrinkWithoutContext(value: unknown): value is string {
    return this.range.canShrinkWithoutContext(value);
  }
  shrink(value: string): fc.Stream<fc.Value<string>> {
    return this.range.shrink(value, undefined);
  }
}

/**
 * Wide strings: short ones mostly, any length up to the maximum, and the maximum itself. All
 * shrink in length and characters.
 */
function wideString(o: ScalarOptions, min: number, max: number): fc.Arbitrary<string> {
  const unit = o.ascii ? printable : wideChar;
  const range = fc.string({ unit, minLength: min, maxLength: max, size: 'max' });
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit, minLength: min, maxLength: max }) },
    { weight: 2, arbitrary: range },
    {
      weight: max > min ? 1 : 0,
      arbitrary: new AtMaximum(fc.string({ unit, minLength: max, maxLength: max }), range),
    },
  );
  // A header value loses the spaces at its ends on the way (RFC 9110): none are generated there.
  return o.ascii ? text.map((t) => t.replace(/^ | $/g, 'a')) : text;
}

const word = (o: ScalarOptions, min = 3, max = 10) =>
  o.range === 'wide'
    ? wideString(o, min, max)
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

/**
 * fast-check's strings matching a RegExp, or undefined when it cannot express it. It has no
 * lookaround (`^(?!sink_)[a-z_]+$` threw and took the whole operation down): those only constrain
 * and consume nothing, so strings of the pattern without them are drawn, and the draw's own
 * validation against the real pattern keeps the ones that match.
 */
function stringMatching(re: RegExp, maxLength: number): fc.Arbitrary<string> | undefined {
  const key = `${maxLength}/${re.flags}/${re.source}`;
  if (matchers.has(key)) return matchers.get(key);
  let out: fc.Arbitrary<string> | undefined;
  for (const source of [re.source, withoutLookarounds(re.source)]) {
    try {
      out = fc.stringMatching(new RegExp(source, re.flags), { maxLength });
      break;
    } catch {
      // not expressible: try without lookarounds, then give up
    }
  }
  if (matchers.size >= 1000) matchers.clear();
  matchers.set(key, out);
  return out;
}

/**
 * Built arbitraries by cap and pattern: fast-check takes up to 80 ms to build one for a long
 * pattern (an AWS ARN), and a draw builds its arbitrary again on every attempt.
 */
const matchers = new Map<string, fc.Arbitrary<string> | undefined>();

/** A RegExp source without its lookahead and lookbehind groups. */
export function withoutLookarounds(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const rest = source.slice(i);
    if (!/^\((\?[=!]|\?<[=!])/.test(rest)) {
      const c = source[i] as string;
      if (c === '\\') {
        out += source.slice(i, i + 2);
        i++;
      } else if (c === '[') {
        const end = classEnd(source, i);
        out += source.slice(i, end + 1);
        i = end;
      } else out += c;
      continue;
    }
    // Skip to the group's closing parenthesis (escapes and classes inside do not count).
    let depth = 0;
    for (; i < source.length; i++) {
      const c = source[i];
      if (c === '\\') i++;
      else if (c === '[') i = classEnd(source, i);
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
  }
  return out;
}

export function stringArbitrary(
  s: Obj,
  patterns: string[],
  o: ScalarOptions,
): fc.Arbitrary<string> {
  const wide = o.range === 'wide';
  const { min, max: declared } = lengths(s, wide ? (o.maxStringLength ?? 1000) : 12);
  // Undeclared maxima stay short when wide; declared ones are reached (up to the cap).
  const max = wide && num(s, 'maxLength') === undefined ? Math.min(declared, min + 64) : declared;
  const regexes = patterns.map(patternRegExp).filter((r): r is RegExp => r !== undefined);
  const [first, ...others] = regexes;
  if (first) {
    // No filter (a filter that never passes never ends): the draw validates and retries.
    void others;
    // A declared maxLength bounds the pattern's repetitions too (`^arn:[a-z]+$`, maxLength 12).
    const declaredMax = num(s, 'maxLength');
    const capped = declaredMax !== undefined;
    // Never under what the pattern needs (an AWS ARN 50 to 80 characters, its optional parts
    // included: see clampRoom), with room past it for the filter fast-check adds; never past the
    // declared maximum. A pattern longer than that admits no value: the draw says so, rather
    // than fast-check filtering for ever.
    const want = capped ? Math.max(1, max) : Math.max(max, 64);
    const cap = Math.min(declaredMax ?? Infinity, Math.max(want, clampRoom(first.source) + 32));
    const least = minMatchLength(first.source);
    const matching = least <= cap ? stringMatching(first, cap) : undefined;
    // A pattern says nothing of length: where its strings can be shorter than the minimum,
    // words of the right length are drawn too, so a loose pattern (AWS's `.*` with minLength 20)
    // still gets a valid draw. Only then: a word seldom matches a pattern, and an object of many
    // such fields (AWS's S3 URIs, minLength 1) was never valid as a whole.
    if (matching && min > least)
      return fc.oneof(
        { weight: 1, arbitrary: matching.map((m) => longEnough(m, min)) },
        { weight: 1, arbitrary: word(o, Math.min(min, max), max) },
      );
    if (matching) return matching;
  }
  const format = typeof s.format === 'string' ? formatted(s.format) : undefined;
  if (format) return format;
  const low = Math.max(min, num(s, 'minLength') === undefined && o.range === 'readable' ? 3 : 0);
  return word(o, Math.min(low, max), max);
}

/**
 * A match shorter than the minimum, lengthened by its own text: a JSON Schema pattern is not
 * anchored, so a string that starts with a match still matches (AWS Omics' ids, `[0-9]+` at
 * least 10 long, where fast-check's matches are mostly shorter and a word never matches).
 */
function longEnough(match: string, min: number): string {
  if (match.length >= min || match.length === 0) return match;
  return match + match.repeat(Math.ceil(min / match.length)).slice(0, min - match.length);
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

/** Wide numbers hit their bounds often: a boundary value is where servers go wrong. */
function withBounds(o: ScalarOptions, arb: fc.Arbitrary<number>, min: number, max: number) {
  if (o.range !== 'wide' || min >= max) return arb;
  return fc.oneof(
    { weight: 4, arbitrary: arb },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

/** Integers from lo to hi (inclusive), their bounds often when wide. */
const between = (o: ScalarOptions, lo: number, hi: number) =>
  withBounds(o, fc.integer({ min: lo, max: hi }), lo, hi);

export function integerArbitrary(s: Obj, o: ScalarOptions): fc.Arbitrary<number> {
  const { min, max } = integerBounds(s, o);
  const step = num(s, 'multipleOf');
  if (step !== undefined && step > 0 && Number.isInteger(step)) {
    const lo = Math.ceil(min / step);
    const hi = Math.floor(max / step);
    if (lo <= hi) return between(o, lo, hi).map((k) => k * step);
  }
  if (min === max || !Number.isSafeInteger(min) || !Number.isSafeInteger(max))
    return fc.constant(min);
  return between(o, Math.min(min, max), Math.max(min, max));
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
      return between(o, bounds.min, bounds.max).map((k) => Number((k * step).toFixed(decimals)));
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
  if (bounds.min <= bounds.max) return between(o, bounds.min, bounds.max).map((c) => c / 100);
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
