/**
 * JSON Schema (2020-12, as the model holds it) -> fast-check Arbitrary. One builder for every
 * value the toolkit invents: mock answers, contract requests and (issue 18) fuzzing draw from it.
 *
 * `direction` decides readOnly/writeOnly: a request leaves out readOnly properties, a response
 * leaves out writeOnly ones (OpenAPI's rule). Recursion is bounded by depth: past it only required
 * properties and minimal arrays are built.
 */
import fc from 'fast-check';
import { isObject, type JsonSchema, type Obj, type ServiceModel } from 'dataapi/model';
import { effective, jsonType, typesOf, type Effective } from './effective.ts';
import {
  integerArbitrary,
  numberArbitrary,
  stringArbitrary,
  type ScalarOptions,
} from './scalars.ts';

export interface ArbitraryOptions extends Partial<ScalarOptions> {
  direction?: 'request' | 'response';
  /** Take a schema's own `examples`/`default` where it has them (readable, realistic data). */
  preferExamples?: boolean;
  /** Optional properties: all present (down to `fullDepth`), or each present or not at random. */
  optional?: 'all' | 'random';
  /** Depth past which only required properties and minimal arrays are built (default 4). */
  fullDepth?: number;
  /** Hard depth limit for recursive schemas (default 10). */
  maxDepth?: number;
  /**
   * No empty list or object where the schema admits an item or a property (above maxDepth): a
   * form body writes no pair for an empty one, so it would be read back absent (a required one
   * refused). Off by default.
   */
  filled?: boolean;
}

type Arb = fc.Arbitrary<unknown>;

interface Ctx {
  model: ServiceModel;
  o: Required<ArbitraryOptions>;
}

export const DEFAULTS: Required<ArbitraryOptions> = {
  direction: 'response',
  preferExamples: true,
  optional: 'all',
  fullDepth: 4,
  maxDepth: 10,
  filled: false,
  range: 'readable',
  ascii: false,
  maxStringLength: 1000,
};

/** The Arbitrary of a schema of the model. */
export function arbitraryOf(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  options: ArbitraryOptions = {},
): Arb {
  return build({ model, o: { ...DEFAULTS, ...options } }, schema, 0);
}

function build(ctx: Ctx, schema: JsonSchema | undefined, depth: number): Arb {
  // A schema that requires itself has no finite value: stop (the draw reports it invalid).
  if (depth > ctx.o.maxDepth + 8) return fc.constant(null);
  const e = effective(ctx.model, schema);
  if (e.choices.length > 0) return chooseFrom(ctx, e, depth);
  return fromMerged(ctx, e, depth);
}

/** oneOf/anyOf: one option of the first list, merged with the rest of the schema. */
function chooseFrom(ctx: Ctx, e: Effective, depth: number): Arb {
  const [first, ...rest] = e.choices;
  const base: Obj = { ...e.s };
  if (rest.length > 0) base.allOf = rest.map((c) => ({ [c.kind]: c.options }));
  const disc = isObject(e.s.discriminator) ? e.s.discriminator : undefined;
  const own = first!.kind === 'oneOf' ? ownTags(ctx, first!.options) : [];
  const branches = first!.options.map((option, i) => {
    const parts: JsonSchema[] = [base, option];
    const tag = disc ? discriminatorValue(disc, option) : undefined;
    if (tag !== undefined && typeof disc!.propertyName === 'string')
      parts.push({ properties: { [disc!.propertyName]: { const: tag } } });
    else if (own[i]) parts.push(own[i] as JsonSchema);
    return { allOf: parts } as JsonSchema;
  });
  const told = branches.filter((_, i) => own[i] !== false);
  if (told.length > 0 && told.length < branches.length)
    branches.splice(0, branches.length, ...told);
  // Past the full depth, the first option only: recursive unions stay finite.
  const usable = depth >= ctx.o.fullDepth ? branches.slice(0, 1) : branches;
  const arbs = usable.map((b) => build(ctx, b, depth + 1));
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

/** The `const`/`enum` values each option gives a property (undefined: it does not restrict it). */
function tagValues(ctx: Ctx, option: JsonSchema): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const props = effective(ctx.model, option).s.properties;
  if (!isObject(props)) return out;
  for (const [name, sub] of Object.entries(props)) {
    const p = effective(ctx.model, sub as JsonSchema).s;
    if ('const' in p) out.set(name, [p.const]);
    else if (Array.isArray(p.enum)) out.set(name, p.enum);
  }
  return out;
}

/**
 * Options of a `oneOf` told apart by a `const`/`enum` property (no discriminator): each option's
 * sample takes that property, with a value no other option admits there, so it matches exactly
 * one option (`keypress` in two options' enums would match both; an option whose tag is optional
 * would look like another without it). Undefined for an option with no such property, false for
 * one whose every value there another option takes too (sampled only when no other is left).
 */
function ownTags(ctx: Ctx, options: JsonSchema[]): (Obj | false | undefined)[] {
  const tags = options.map((o) => tagValues(ctx, o));
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return tags.map((mine, i) => {
    for (const [name, values] of mine) {
      // An option that says nothing of the property admits every value there: no tag tells it apart.
      if (tags.some((t, j) => j !== i && !t.has(name))) continue;
      const unique = values.filter(
        (v) => !tags.some((t, j) => j !== i && t.get(name)!.some((w) => same(v, w))),
      );
      if (unique.length > 0) return { required: [name], properties: { [name]: { enum: unique } } };
      // Every value it allows there another option allows too: its values may match both.
      return false;
    }
    return undefined;
  });
}

/** The discriminator value naming an option: its mapping key, else its component's name. */
function discriminatorValue(disc: Obj, option: JsonSchema): string | undefined {
  const ref = isObject(option) && typeof option.$ref === 'string' ? option.$ref : undefined;
  if (!ref) return undefined;
  const mapping = isObject(disc.mapping) ? disc.mapping : {};
  const name = (r: string) => decodeURIComponent(r.slice(r.lastIndexOf('/') + 1));
  // Mappings name a schema by reference or by bare name; the model's refs point into $defs.
  for (const [key, target] of Object.entries(mapping))
    if (typeof target === 'string' && name(target) === name(ref)) return key;
  return name(ref);
}

function fromMerged(ctx: Ctx, e: Effective, depth: number): Arb {
  const s = e.s;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const types = typesOf({ type: s.type });
    const fitting = types.length
      ? s.enum.filter(
          (v) =>
            types.includes(jsonType(v)) || (jsonType(v) === 'integer' && types.includes('number')),
        )
      : s.enum;
    const values = fitting.length > 0 ? fitting : s.enum;
    return ctx.o.preferExamples ? fc.constant(values[0]) : fc.constantFrom(...values);
  }
  if (ctx.o.preferExamples) {
    if (Array.isArray(s.examples) && s.examples.length > 0) return fc.constant(s.examples[0]);
    if ('default' in s) return fc.constant(s.default);
  }
  const types = typesOf(s);
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length === 0) return types.includes('null') ? fc.constant(null) : anyValue(ctx);
  // Deep in a recursive schema, null ends the recursion where the schema allows it.
  if (types.includes('null') && depth >= ctx.o.maxDepth) return fc.constant(null);
  const arbs = nonNull.map((t) => ofType(ctx, e, t, depth));
  const value = arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
  if (!types.includes('null') || ctx.o.preferExamples) return value;
  return fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });
}

function anyValue(ctx: Ctx): Arb {
  return stringArbitrary({}, [], scalarOptions(ctx));
}

const scalarOptions = (ctx: Ctx): ScalarOptions => ({
  range: ctx.o.range,
  ascii: ctx.o.ascii,
  maxStringLength: ctx.o.maxStringLength,
});

function ofType(ctx: Ctx, e: Effective, type: string, depth: number): Arb {
  const s = e.s;
  const scalar = scalarOptions(ctx);
  switch (type) {
    case 'boolean':
      return ctx.o.preferExamples ? fc.constant(true) : fc.boolean();
    case 'integer':
      return integerArbitrary(s, scalar);
    case 'number':
      return numberArbitrary(s, scalar);
    case 'string':
      return stringArbitrary(s, e.patterns, scalar);
    case 'array':
      return arrayOf(ctx, s, depth);
    case 'object':
      return objectOf(ctx, e, depth);
    default:
      return anyValue(ctx);
  }
}

function arrayOf(ctx: Ctx, s: Obj, depth: number): Arb {
  const declaredMax = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const fill = ctx.o.filled && depth < ctx.o.maxDepth && declaredMax >= 1 && s.items !== false;
  const minItems = Math.max(typeof s.minItems === 'number' ? s.minItems : 0, fill ? 1 : 0);
  const deep = depth >= ctx.o.fullDepth;
  const wanted = deep ? minItems : Math.max(minItems, ctx.o.optional === 'all' ? 1 : minItems + 3);
  const maxItems = Math.max(minItems, Math.min(declaredMax, wanted));
  const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
  const itemSchema = s.items === false ? undefined : (s.items as JsonSchema | undefined);
  const restMin = Math.max(0, minItems - prefix.length);
  const restMax = s.items === false ? 0 : Math.max(restMin, maxItems - prefix.length);
  // No item schema is built for an array that stays empty (recursive schemas end here).
  const item = restMax > 0 ? build(ctx, itemSchema ?? {}, depth + 1) : fc.constant(null);
  const count =
    ctx.o.optional === 'all'
      ? { minLength: restMax, maxLength: restMax }
      : { minLength: restMin, maxLength: restMax };
  const rest =
    s.uniqueItems === true
      ? fc.uniqueArray(item, { ...count, selector: (v) => JSON.stringify(v) })
      : fc.array(item, count);
  const head = fc.tuple(...prefix.map((p) => build(ctx, p, depth + 1)));
  const contains =
    s.contains !== undefined ? build(ctx, s.contains as JsonSchema, depth + 1) : undefined;
  return fc
    .tuple(head, rest, contains ? contains.map((c) => [c]) : fc.constant([]))
    .map(([h, r, c]) => {
      const all = [...h, ...r];
      // `contains`: one item of its schema, replacing the last of the free items.
      if (c.length > 0) all.length > prefix.length ? all.splice(-1, 1, ...c) : all.push(...c);
      return all;
    });
}

function objectOf(ctx: Ctx, e: Effective, depth: number): Arb {
  const s = e.s;
  const props = (isObject(s.properties) ? s.properties : {}) as Record<string, JsonSchema>;
  const skip = ctx.o.direction === 'request' ? 'readOnly' : 'writeOnly';
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const deep = depth >= ctx.o.fullDepth;
  const entries: [string, Arb, boolean][] = [];
  for (const [name, sub] of Object.entries(props)) {
    if (e.allowed && !e.allowed.has(name)) continue;
    const sub_ = effective(ctx.model, sub);
    if (sub_.s[skip] === true) continue;
    const isRequired = required.has(name);
    if (!isRequired && (deep || depth >= ctx.o.maxDepth)) continue;
    if (!isRequired && sub_.impossible) continue;
    entries.push([name, build(ctx, sub, depth + 1), isRequired]);
  }
  const extra = isObject(s.additionalProperties) ? (s.additionalProperties as JsonSchema) : {};
  for (const name of required)
    if (!(name in props) && s.additionalProperties !== false)
      entries.push([name, build(ctx, extra, depth + 1), true]);
  // maxProperties (CAMARA's DeviceResponse: a Device, allOf maxProperties 1): the required
  // properties, then optional ones only while there is room; minProperties fills from them.
  if (typeof s.maxProperties === 'number') {
    let room = s.maxProperties - entries.filter((e) => e[2]).length;
    for (let i = 0; i < entries.length; i++)
      if (!entries[i]![2] && room-- <= 0) entries.splice(i--, 1);
  }
  const minProps = typeof s.minProperties === 'number' ? s.minProperties : 0;
  // minProperties beyond the required ones: that many optional properties are always sent.
  let short = minProps - entries.filter((e) => e[2]).length;
  for (const e of entries) if (!e[2] && short-- > 0) e[2] = true;
  for (let i = 0; entries.length < minProps && i < minProps; i++)
    if (s.additionalProperties !== false)
      entries.push([`property${i + 1}`, build(ctx, extra, depth + 1), true]);
  if (ctx.o.filled && depth < ctx.o.maxDepth && !entries.some((e) => e[2]))
    fillOne(ctx, e, props, extra, depth, entries);
  const random = ctx.o.optional === 'random';
  const parts = entries.map(([name, arb, req]) =>
    (req || !random ? arb : fc.option(arb, { nil: undefined })).map((v) => [name, v] as const),
  );
  return fc.tuple(...parts).map((pairs) => {
    const out: Obj = {};
    // defineProperty: a property named `__proto__` is data, not the prototype.
    for (const [name, v] of pairs)
      if (v !== undefined)
        Object.defineProperty(out, name, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    return out;
  });
}

/**
 * `filled`: an object that would be empty (no required property; optional ones left out deep
 * down) takes its first writable property, else one additional property, as always sent.
 */
function fillOne(
  ctx: Ctx,
  e: Effective,
  props: Record<string, JsonSchema>,
  extra: JsonSchema,
  depth: number,
  entries: [string, Arb, boolean][],
): void {
  if (entries.length > 0) {
    entries[0]![2] = true;
    return;
  }
  const skip = ctx.o.direction === 'request' ? 'readOnly' : 'writeOnly';
  const own = Object.entries(props).find(([name, sub]) => {
    const x = effective(ctx.model, sub);
    return (!e.allowed || e.allowed.has(name)) && x.s[skip] !== true && !x.impossible;
  });
  if (own) entries.push([own[0], build(ctx, own[1], depth + 1), true]);
  else if (
    e.s.additionalProperties !== false &&
    !(typeof e.s.maxProperties === 'number' && e.s.maxProperties < 1)
  )
    entries.push(['property1', build(ctx, extra, depth + 1), true]);
}
