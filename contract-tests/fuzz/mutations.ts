/**
 * Invalid requests as a fast-check Arbitrary: a generated valid request with exactly one
 * violation, drawn from the schemas: a required field missing, a number past a bound (shrinking
 * to the first value outside), a string not in an enum, too long or too short, not matching its
 * pattern, a value of another type, an array with too many or too few items. The rules of the
 * fixed negative cases hold (negatives.ts): values that stay invalid as text on the wire, no
 * length past what a URL, header or body can carry.
 */
import fc from 'fast-check';
import { sentBody, type Obj, type Operation, type ServiceModel } from 'dataapi/model';
import { arbitraryOf, effective, patternRegExp, typesOf } from 'dataapi/runtime/sampler';
import { invalidValues, MAX_SENT_LENGTH, type NegativeCase } from '../negatives.ts';
import { segmentLiteral } from '../path-values.ts';
import { alwaysSent, framing } from '../fetch-headers.ts';
import type { RequestSpec } from '../requests.ts';
import { fieldsOf, withValue, type Field } from './fields.ts';
import { validArbitrary } from './generate.ts';

/** One invalid request: its one violation, and the field and value it is about. */
export interface Mutation {
  case: NegativeCase;
  field?: Field;
  value?: unknown;
}

interface Bad {
  value: unknown;
  why: string;
  kind: NegativeCase['kind'];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const letters = fc.constantFrom(...LETTERS);
const SAFE = Number.MAX_SAFE_INTEGER;

export function invalidArbitrary(
  model: ServiceModel,
  op: Operation,
  first: RequestSpec,
): fc.Arbitrary<{ base: RequestSpec; spec: RequestSpec; mutation: Mutation }> | undefined {
  const mutations = mutationsOf(model, op);
  if (mutations.length === 0) return undefined;
  // The path stays the fixed suite's (a resource the target may know): one violation at a time.
  return fc.tuple(validArbitrary(model, op), fc.oneof(...mutations)).map(([generated, m]) => {
    const base = { ...generated, path: { ...first.path } };
    return { base, spec: m.case.apply(base), mutation: m };
  });
}

function mutationsOf(model: ServiceModel, op: Operation): fc.Arbitrary<Mutation>[] {
  const out: fc.Arbitrary<Mutation>[] = [];
  for (const f of fieldsOf(model, op)) {
    if (f.untouched) continue;
    const where = f.loc === 'body' ? 'body field' : f.key.split('.')[0]!;
    // A header fetch always writes (User-Agent, ...) cannot be left out.
    if (f.required && f.loc !== 'path' && !(f.key.startsWith('header.') && alwaysSent(f.name)))
      out.push(
        fc.constant({
          case: {
            label: `${where} ${f.name} missing (required)`,
            target: `${f.loc}.${f.name}`,
            kind: 'missing',
            apply: (s) => withValue(s, f, undefined),
          },
        }),
      );
    // A path value holding the text its segment shares with it (`{id}.{format}`, id=1.5) is read
    // as other values on the wire (id=1, format=5.json): that text is replaced, the value stays
    // invalid ("1x5" is no integer either). Corpus: hhs.gov.
    const separators = f.loc === 'path' ? segmentLiteral(op.path, f.name) : '';
    // The HTTP layer writes Content-Length from the body: no invalid value of it goes out.
    if (f.key.startsWith('header.') && framing(f.name)) continue;
    for (const arb of badValues(model, f))
      out.push(
        arb
          .map((b) => (separators ? apart(b, separators) : b))
          .map((bad) => ({
            case: {
              label: `${where} ${f.name}=${show(bad.value)} (${bad.why})`,
              target: `${f.loc}.${f.name}`,
              kind: bad.kind,
              apply: (s: RequestSpec) => withValue(s, f, bad.value),
            },
            field: f,
            value: bad.value,
          })),
      );
  }
  for (const group of op.requireAnyOf)
    out.push(
      fc.constant({
        case: {
          label: `none of ${group.join(', ')} sent (one is required)`,
          target: group.map((n) => `query.${n}`).join('|'),
          kind: 'missing',
          apply: (s: RequestSpec) => ({
            ...s,
            query: Object.fromEntries(Object.entries(s.query).filter(([k]) => !group.includes(k))),
          }),
        },
      }),
    );
  if (sentBody(op)?.required)
    out.push(
      fc.constant({
        case: {
          label: 'request body missing (required)',
          target: 'body',
          kind: 'body',
          apply: (s: RequestSpec) => ({ ...s, omitBody: true }),
        },
      }),
    );
  return out;
}

/** A bad value without the given characters (each replaced by `x` or `_`; a number becomes text). */
function apart(bad: Bad, chars: string): Bad {
  const text = typeof bad.value === 'string' ? bad.value : JSON.stringify(bad.value);
  if (![...chars].some((c) => text.includes(c))) return bad;
  const instead = chars.includes('x') ? '_' : 'x';
  return { ...bad, value: [...text].map((c) => (chars.includes(c) ? instead : c)).join('') };
}

/** Arbitraries of values the field's schema rejects (one kind of violation each). */
function badValues(model: ServiceModel, f: Field): fc.Arbitrary<Bad>[] {
  const e = effective(model, f.schema);
  if (e.choices.length > 0) return []; // alternatives: too open to reason about
  const s = e.s;
  const out: fc.Arbitrary<Bad>[] = [...ranges(s)];
  const en = Array.isArray(s['enum']) ? (s['enum'] as unknown[]) : undefined;
  if (en?.length && en.every((v) => typeof v === 'string'))
    out.push(
      fc
        .string({ unit: letters, minLength: 1, maxLength: 12 })
        .filter((v) => !en.includes(v))
        .map((value) => ({ value, why: 'not in enum', kind: 'enum' as const })),
    );
  const types = invalidValues(s, f.onWire).filter((b) => b.kind === 'type');
  if (types.length > 0) out.push(fc.constantFrom(...types));
  const types_ = typesOf(s);
  if (types_.includes('string') && (types_.length === 1 || !f.onWire)) out.push(...lengths(s, f));
  const patterns = [s['pattern'], ...e.patterns].filter((p): p is string => typeof p === 'string');
  for (const pattern of [...new Set(patterns)].slice(0, 1)) {
    const re = patternRegExp(pattern);
    const misses = ['a', 'A', '0', '-', '!', '.', ' ', 'é', 'a b', '%'].filter((c) => !re?.test(c));
    if (re && misses.length > 0)
      out.push(
        fc
          .oneof(
            fc.constantFrom(...misses),
            fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }),
          )
          .map((value) => ({ value, why: `does not match ${pattern}`, kind: 'pattern' as const })),
      );
  }
  if (types_.includes('array') && !f.onWire && typeof s['items'] === 'object') {
    const item = arbitraryOf(model, s['items'] as Obj, { direction: 'request' });
    const max = num(s, 'maxItems');
    const min = num(s, 'minItems');
    if (max !== undefined && max < 100)
      out.push(
        fc
          .array(item, { minLength: max + 1, maxLength: max + 1 })
          .map((value) => ({ value, why: `more than ${max} items`, kind: 'length' as const })),
      );
    if (min !== undefined && min > 0)
      out.push(
        fc
          .array(item, { maxLength: min - 1 })
          .map((value) => ({ value, why: `fewer than ${min} items`, kind: 'length' as const })),
      );
  }
  return out;
}

const num = (s: Obj, k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);

/** Numbers outside the bounds: the first one outside, and further out (shrinking comes back). */
function ranges(s: Obj): fc.Arbitrary<Bad>[] {
  const types = typesOf(s);
  if (!(types.includes('integer') || types.includes('number')) || types.includes('string'))
    return [];
  const exact = (k: string) => {
    const n = num(s, k);
    return n !== undefined && Math.abs(n) < SAFE - 2e6 ? n : undefined;
  };
  const out: fc.Arbitrary<Bad>[] = [];
  // The first value outside often (where off-by-one bugs are), further out too.
  const away = (from: number, sign: 1 | -1, why: string) =>
    fc
      .oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(1_000_000) })
      .map((k) => ({ value: from + sign * k, why, kind: 'range' as const }));
  const max = exact('maximum');
  const min = exact('minimum');
  const xmax = exact('exclusiveMaximum');
  const xmin = exact('exclusiveMinimum');
  if (max !== undefined) out.push(away(max + 1, 1, `above maximum ${max}`));
  if (xmax !== undefined) out.push(away(xmax, 1, `not below exclusiveMaximum ${xmax}`));
  if (min !== undefined) out.push(away(min - 1, -1, `below minimum ${min}`));
  if (xmin !== undefined) out.push(away(xmin, -1, `not above exclusiveMinimum ${xmin}`));
  return out;
}

function lengths(s: Obj, f: Field): fc.Arbitrary<Bad>[] {
  const out: fc.Arbitrary<Bad>[] = [];
  const sendable = f.onWire ? MAX_SENT_LENGTH.onWire : MAX_SENT_LENGTH.body;
  const maxLen = num(s, 'maxLength');
  if (maxLen !== undefined && maxLen < sendable)
    out.push(
      fc
        .string({
          unit: letters,
          minLength: maxLen + 1,
          maxLength: Math.min(sendable, maxLen + 65),
        })
        .map((value) => ({ value, why: `longer than ${maxLen}`, kind: 'length' as const })),
    );
  const minLen = num(s, 'minLength');
  // An empty string on the wire may mean "absent": only lengths of 1 or more are sent there.
  const floor = f.onWire ? 1 : 0;
  if (minLen !== undefined && minLen - 1 >= floor)
    out.push(
      fc
        .string({ unit: letters, minLength: floor, maxLength: minLen - 1 })
        .map((value) => ({ value, why: `shorter than ${minLen}`, kind: 'length' as const })),
    );
  return out;
}

function show(v: unknown): string {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}
