/**
 * Compares two schemas of one place of an operation, in a direction: in a request the client
 * writes the value (narrowing breaks it), in a response the client reads it (widening breaks it).
 * `$ref`s are followed on each side; a pair of schemas is compared once per operation and
 * direction, so a shared schema reached along several paths reports its change once.
 */
import { isObject as isObj, type Obj } from '../../model/object.ts';
import { canonText, defKey, refsIn } from './canon.ts';
import type { RuleId } from './rules.ts';
import { compareAlternatives, compareArrays, compareObjects, flatten } from './schema-parts.ts';
import type { Side } from './types.ts';
import type { SchemaContext, Where } from './walk-context.ts';
import { emitAt, settle, view, type View } from './schema-view.ts';

export { emitAt, resolve, view, type View } from './schema-view.ts';

export function compareSchemas(b: unknown, h: unknown, where: Where, ctx: SchemaContext): void {
  const bk = defKey(b);
  const hk = defKey(h);
  const bare = (s: unknown) => isObj(s) && Object.keys(s).length === 1;
  if (bk !== undefined && bk === hk && !ctx.dirty.has(bk) && bare(b) && bare(h)) return;
  const pair = `${ctx.dir}|${bk ?? where.base ?? where.label}|${hk ?? where.head ?? where.label}`;
  if (ctx.seen.has(pair)) return;
  ctx.seen.add(pair);
  const rb = settle(ctx.base, b, where.base);
  const rh = settle(ctx.head, h, where.head);
  const text = canonText(rb.schema);
  if (text === canonText(rh.schema) && ![...refsIn(rb.schema)].some((k) => ctx.dirty.has(k)))
    return;
  const vb = view(ctx.base, rb.schema, rb.pointer);
  const vh = view(ctx.head, rh.schema, rh.pointer);
  compareViews(vb, vh, { ...where, base: vb.pointer, head: vh.pointer }, ctx);
}

export function compareViews(vb: View, vh: View, where: Where, ctx: SchemaContext): void {
  const bAll = vb.s['allOf'];
  const hAll = vh.s['allOf'];
  if ((bAll !== undefined || hAll !== undefined) && !sameLength(bAll, hAll)) {
    // A schema split into (or merged from) allOf parts: compare what the parts add up to.
    const fb = flatten(ctx.base, vb.s);
    const fh = flatten(ctx.head, vh.s);
    compareViews({ ...vb, s: fb }, { ...vh, s: fh }, where, ctx);
    return;
  }
  if (!compareTypes(vb, vh, where, ctx)) return;
  compareEnums(vb.s, vh.s, where, ctx);
  compareBounds(vb.s, vh.s, where, ctx);
  compareConstraints(vb.s, vh.s, where, ctx);
  compareObjects(vb.s, vh.s, where, ctx);
  compareArrays(vb.s, vh.s, where, ctx);
  compareAlternatives(vb.s, vh.s, where, ctx, 'allOf');
  compareAlternatives(vb.s, vh.s, where, ctx, 'anyOf');
  const keys = new Set([...Object.keys(vb.s), ...Object.keys(vh.s)]);
  for (const key of [...keys].sort()) {
    if (HANDLED.has(key)) continue;
    if (canonText(vb.s[key]) === canonText(vh.s[key])) continue;
    const side: Side = vh.s[key] === undefined ? 'base' : 'head';
    emitAt(ctx, `${ctx.dir}-schema-changed`, side, where, [key], `${where.label}: ${key} changed`);
  }
}

const sameLength = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length;

type TypeSet = string[] | undefined;
const accepts = (set: TypeSet, t: string) =>
  set === undefined || set.includes(t) || (t === 'integer' && set.includes('number'));

/** Reports type changes; false when the types have nothing in common (nothing more to say). */
function compareTypes(vb: View, vh: View, where: Where, ctx: SchemaContext): boolean {
  const tb = vb.never ? [] : (vb.s['type'] as TypeSet);
  const th = vh.never ? [] : (vh.s['type'] as TypeSet);
  const lost = tb === undefined ? th !== undefined : tb.some((t) => !accepts(th, t));
  const gained = th === undefined ? tb !== undefined : th.some((t) => !accepts(tb, t));
  const lostNull = vb.nullable && !vh.nullable;
  const gainedNull = !vb.nullable && vh.nullable;
  const show = (v: View, t: TypeSet) =>
    v.never ? 'nothing' : `${t?.join(' | ') ?? 'any type'}${v.nullable ? ' | null' : ''}`;
  const message = `${where.label}: type ${show(vb, tb)} → ${show(vh, th)}`;
  if (ctx.dir === 'request') {
    if (lost || lostNull) emitAt(ctx, 'request-type-narrowed', 'head', where, ['type'], message);
    else if (gained || gainedNull)
      emitAt(ctx, 'request-type-widened', 'head', where, ['type'], message);
  } else if (gained || gainedNull) {
    emitAt(ctx, 'response-type-changed', 'head', where, ['type'], message);
  } else if (lost || lostNull) {
    emitAt(ctx, 'response-type-narrowed', 'head', where, ['type'], message);
  }
  if (vb.never || vh.never) return false;
  const disjoint =
    tb !== undefined &&
    th !== undefined &&
    !tb.some((t) => accepts(th, t)) &&
    !th.some((t) => accepts(tb, t));
  return !disjoint;
}

function compareEnums(b: Obj, h: Obj, where: Where, ctx: SchemaContext): void {
  const eb = Array.isArray(b['enum']) ? b['enum'].map((v) => JSON.stringify(v)) : undefined;
  const eh = Array.isArray(h['enum']) ? h['enum'].map((v) => JSON.stringify(v)) : undefined;
  if (eb === undefined && eh === undefined) return;
  const req = ctx.dir === 'request';
  if (eb === undefined || eh === undefined) {
    const added = eh !== undefined;
    const rule: RuleId = req
      ? added
        ? 'request-constraint-added'
        : 'request-constraint-removed'
      : added
        ? 'response-constraint-added'
        : 'response-constraint-removed';
    const what = added ? `now limited to ${eh!.join(', ')}` : 'no longer limited to an enum';
    emitAt(ctx, rule, added ? 'head' : 'base', where, ['enum'], `${where.label}: ${what}`);
    return;
  }
  const removed = eb.filter((v) => !eh.includes(v));
  const added = eh.filter((v) => !eb.includes(v));
  if (removed.length > 0) {
    const rule = req ? 'request-enum-value-removed' : 'response-enum-value-removed';
    emitAt(ctx, rule, 'head', where, ['enum'], `${where.label}: enum lost ${removed.join(', ')}`);
  }
  if (added.length > 0) {
    const rule = req ? 'request-enum-value-added' : 'response-enum-value-added';
    emitAt(ctx, rule, 'head', where, ['enum'], `${where.label}: enum gained ${added.join(', ')}`);
  }
}

type Bound = { v: number; ex: boolean; key: string } | undefined;

function lowerBound(s: Obj, min: string, exMin?: string): Bound {
  const m = typeof s[min] === 'number' ? (s[min] as number) : undefined;
  const e = exMin && typeof s[exMin] === 'number' ? (s[exMin] as number) : undefined;
  if (e !== undefined && (m === undefined || e >= m)) return { v: e, ex: true, key: exMin! };
  return m !== undefined ? { v: m, ex: false, key: min } : undefined;
}

function upperBound(s: Obj, max: string, exMax?: string): Bound {
  const m = typeof s[max] === 'number' ? (s[max] as number) : undefined;
  const e = exMax && typeof s[exMax] === 'number' ? (s[exMax] as number) : undefined;
  if (e !== undefined && (m === undefined || e <= m)) return { v: e, ex: true, key: exMax! };
  return m !== undefined ? { v: m, ex: false, key: max } : undefined;
}

const BOUNDS: [string, 'lower' | 'upper', string?][] = [
  ['minimum', 'lower', 'exclusiveMinimum'],
  ['maximum', 'upper', 'exclusiveMaximum'],
  ['minLength', 'lower'],
  ['maxLength', 'upper'],
  ['minItems', 'lower'],
  ['maxItems', 'upper'],
  ['minProperties', 'lower'],
  ['maxProperties', 'upper'],
];

/** Keywords compared by their own rule; any other keyword that differs is a `*-schema-changed`. */
const HANDLED = new Set([
  ...BOUNDS.flatMap(([key, , exclusive]) => (exclusive ? [key, exclusive] : [key])),
  ...['type', 'enum', 'multipleOf', 'uniqueItems', 'pattern', 'format', 'required'],
  ...['properties', 'additionalProperties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'allOf'],
  // read by compareObjects: a readOnly field is never sent, a writeOnly one never read
  ...['readOnly', 'writeOnly'],
]);

function compareBounds(b: Obj, h: Obj, where: Where, ctx: SchemaContext): void {
  const show = (x: Bound) => (x === undefined ? 'none' : `${x.ex ? '(exclusive) ' : ''}${x.v}`);
  for (const [key, kind, ex] of BOUNDS) {
    const read = kind === 'lower' ? lowerBound : upperBound;
    const xb = read(b, key, ex);
    const xh = read(h, key, ex);
    if (xb?.v === xh?.v && xb?.ex === xh?.ex) continue;
    const sign = kind === 'lower' ? 1 : -1;
    const narrowed =
      xb === undefined ||
      (xh !== undefined && (sign * (xh.v - xb.v) > 0 || (xh.v === xb.v && xh.ex)));
    reportBound(
      ctx,
      where,
      narrowed,
      xh?.key ?? xb?.key ?? key,
      xh !== undefined,
      `${where.label}: ${key} ${show(xb)} → ${show(xh)}`,
    );
  }
  const mb = typeof b['multipleOf'] === 'number' ? b['multipleOf'] : undefined;
  const mh = typeof h['multipleOf'] === 'number' ? h['multipleOf'] : undefined;
  if (mb !== mh) {
    const divides = (x: number, y: number) => Math.abs(x / y - Math.round(x / y)) < 1e-9;
    const narrowed = mb === undefined || (mh !== undefined && !divides(mb, mh));
    reportBound(
      ctx,
      where,
      narrowed,
      'multipleOf',
      mh !== undefined,
      `${where.label}: multipleOf ${mb ?? 'none'} → ${mh ?? 'none'}`,
    );
  }
  if ((b['uniqueItems'] === true) !== (h['uniqueItems'] === true))
    reportBound(
      ctx,
      where,
      h['uniqueItems'] === true,
      'uniqueItems',
      h['uniqueItems'] !== undefined,
      `${where.label}: uniqueItems ${h['uniqueItems'] === true}`,
    );
}

function reportBound(
  ctx: SchemaContext,
  where: Where,
  narrowed: boolean,
  key: string,
  inHead: boolean,
  message: string,
) {
  const rule: RuleId =
    ctx.dir === 'request'
      ? narrowed
        ? 'request-bounds-narrowed'
        : 'request-bounds-widened'
      : narrowed
        ? 'response-bounds-narrowed'
        : 'response-bounds-widened';
  emitAt(ctx, rule, inHead ? 'head' : 'base', where, [key], message);
}

function compareConstraints(b: Obj, h: Obj, where: Where, ctx: SchemaContext): void {
  for (const key of ['pattern', 'format']) {
    const pb = b[key];
    const ph = h[key];
    if (pb === ph) continue;
    const message = `${where.label}: ${key} ${JSON.stringify(pb ?? null)} → ${JSON.stringify(ph ?? null)}`;
    let rule: RuleId;
    if (ctx.dir === 'request')
      rule = ph === undefined ? 'request-constraint-removed' : 'request-constraint-added';
    else rule = pb === undefined ? 'response-constraint-added' : 'response-constraint-removed';
    emitAt(ctx, rule, ph === undefined ? 'base' : 'head', where, [key], message);
  }
}
