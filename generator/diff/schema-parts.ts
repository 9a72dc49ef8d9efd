/** The structural parts of a schema comparison: object properties, array items, alternatives. */
import { isObject as isObj, type Obj } from '../../model/object.ts';
import { canon, canonText, defKey, type SchemaSpace } from './canon.ts';
import type { RuleId } from './rules.ts';
import { emitAt, resolve, view } from './schema-view.ts';
import { child, step, type SchemaContext, type Where } from './walk-context.ts';

const propsOf = (s: Obj): Obj => (isObj(s['properties']) ? s['properties'] : {});
const requiredOf = (s: Obj) =>
  new Set(Array.isArray(s['required']) ? s['required'].map(String) : []);

export function compareObjects(b: Obj, h: Obj, where: Where, ctx: SchemaContext): void {
  const pb = propsOf(b);
  const ph = propsOf(h);
  const rb = requiredOf(b);
  const rh = requiredOf(h);
  const names = [...new Set([...Object.keys(pb), ...Object.keys(ph), ...rb, ...rh])].sort();
  const req = ctx.dir === 'request';
  // A readOnly field is not part of a request, nor a writeOnly one of a response.
  const hidden = (space: SchemaSpace, props: Obj, name: string) => {
    if (!Object.hasOwn(props, name)) return false;
    const s = resolve(space, props[name], undefined).schema;
    return isObj(s) && s[req ? 'readOnly' : 'writeOnly'] === true;
  };
  for (const name of names) {
    const hidB = hidden(ctx.base, pb, name);
    const hidH = hidden(ctx.head, ph, name);
    if (hidB && hidH) continue;
    const inB = Object.hasOwn(pb, name) && !hidB;
    const inH = Object.hasOwn(ph, name) && !hidH;
    const reqB = rb.has(name) && !hidB;
    const reqH = rh.has(name) && !hidH;
    const at = child(where, ['properties', name], step(where.label, name));
    if (inB && !inH && !reqH) {
      const rule: RuleId = req
        ? 'request-property-removed'
        : reqB
          ? 'response-property-removed'
          : 'response-optional-property-removed';
      ctx.emit(rule, 'base', at.base, `${at.label}: removed`);
      continue;
    }
    if (!inB && inH && !reqB) {
      const rule: RuleId = req
        ? reqH
          ? 'request-property-added-required'
          : 'request-property-added'
        : 'response-property-added';
      ctx.emit(rule, 'head', at.head, `${at.label}: added${reqH ? ' (required)' : ''}`);
      continue;
    }
    if (reqB !== reqH) {
      const nowRequired = reqH;
      const rule: RuleId = req
        ? nowRequired
          ? 'request-property-became-required'
          : 'request-property-became-optional'
        : nowRequired
          ? 'response-property-became-required'
          : 'response-property-became-optional';
      ctx.emit(
        rule,
        'head',
        where.head !== undefined ? `${where.head}/required` : undefined,
        `${at.label}: ${nowRequired ? 'now required' : 'now optional'}`,
      );
    }
    if (inB && inH) ctx.compare(pb[name], ph[name], at, ctx);
  }
  compareAdditional(b, h, where, ctx);
}

function compareAdditional(b: Obj, h: Obj, where: Where, ctx: SchemaContext): void {
  const ab = b['additionalProperties'];
  const ah = h['additionalProperties'];
  const closedB = ab === false;
  const closedH = ah === false;
  const label = step(where.label, '(other fields)');
  if (closedB !== closedH) {
    const rule: RuleId =
      ctx.dir === 'request'
        ? closedH
          ? 'request-additional-properties-closed'
          : 'request-additional-properties-opened'
        : closedH
          ? 'response-additional-properties-closed'
          : 'response-additional-properties-opened';
    const side = closedH ? 'head' : 'base';
    emitAt(
      ctx,
      rule,
      side,
      where,
      ['additionalProperties'],
      `${label}: ${closedH ? 'no longer allowed' : 'now allowed'}`,
    );
    return;
  }
  if (isObj(ab) && isObj(ah))
    ctx.compare(ab, ah, child(where, ['additionalProperties'], label), ctx);
}

export function compareArrays(b: Obj, h: Obj, where: Where, ctx: SchemaContext): void {
  if (b['items'] !== undefined || h['items'] !== undefined)
    ctx.compare(
      b['items'] ?? {},
      h['items'] ?? {},
      child(where, ['items'], step(where.label, '[]')),
      ctx,
    );
  const tb = Array.isArray(b['prefixItems']) ? b['prefixItems'] : [];
  const th = Array.isArray(h['prefixItems']) ? h['prefixItems'] : [];
  for (let i = 0; i < Math.min(tb.length, th.length); i++)
    ctx.compare(
      tb[i],
      th[i],
      child(where, ['prefixItems', String(i)], `${where.label}[${i}]`),
      ctx,
    );
  if (tb.length !== th.length)
    emitAt(
      ctx,
      `${ctx.dir}-schema-changed`,
      'head',
      where,
      ['prefixItems'],
      `${where.label}: ${tb.length} → ${th.length} tuple items`,
    );
}

/**
 * Pairs the parts of `allOf`, or the alternatives of `anyOf`/`oneOf`: equal ones first, then
 * references to the same name, then the same type, then by position when the counts agree.
 * An unpaired alternative was added or removed.
 */
export function compareAlternatives(
  b: Obj,
  h: Obj,
  where: Where,
  ctx: SchemaContext,
  kind: 'allOf' | 'anyOf',
): void {
  const keyOf = (s: Obj) =>
    kind === 'allOf' ? 'allOf' : Array.isArray(s['anyOf']) ? 'anyOf' : 'oneOf';
  const kb = keyOf(b);
  const kh = keyOf(h);
  const lb = Array.isArray(b[kb]) ? (b[kb] as unknown[]) : undefined;
  const lh = Array.isArray(h[kh]) ? (h[kh] as unknown[]) : undefined;
  if (lb === undefined && lh === undefined) return;
  const bs = lb ?? [b];
  const hs = lh ?? [h];
  const pairs = pairUp(bs, hs);
  for (const [i, j] of pairs) {
    const at: Where = {
      ...(where.base !== undefined ? { base: lb ? `${where.base}/${kb}/${i}` : where.base } : {}),
      ...(where.head !== undefined ? { head: lh ? `${where.head}/${kh}/${j}` : where.head } : {}),
      label: where.label,
    };
    ctx.compare(bs[i], hs[j], at, ctx);
  }
  const req = ctx.dir === 'request';
  const pairedB = new Set(pairs.map((p) => p[0]));
  const pairedH = new Set(pairs.map((p) => p[1]));
  bs.forEach((_, i) => {
    if (pairedB.has(i)) return;
    const rule: RuleId =
      kind === 'allOf'
        ? `${ctx.dir}-schema-changed`
        : req
          ? 'request-alternative-removed'
          : 'response-alternative-removed';
    ctx.emit(
      rule,
      'base',
      lb && where.base ? `${where.base}/${kb}/${i}` : where.base,
      `${where.label}: ${kb} part ${i} removed`,
    );
  });
  hs.forEach((_, j) => {
    if (pairedH.has(j)) return;
    const rule: RuleId =
      kind === 'allOf'
        ? `${ctx.dir}-schema-changed`
        : req
          ? 'request-alternative-added'
          : 'response-alternative-added';
    ctx.emit(
      rule,
      'head',
      lh && where.head ? `${where.head}/${kh}/${j}` : where.head,
      `${where.label}: ${kh} part ${j} added`,
    );
  });
}

function pairUp(bs: unknown[], hs: unknown[]): [number, number][] {
  const pairs: [number, number][] = [];
  const freeB = new Set(bs.keys());
  const freeH = new Set(hs.keys());
  const pass = (same: (x: unknown, y: unknown) => boolean) => {
    for (const i of [...freeB]) {
      const j = [...freeH].find((k) => same(bs[i], hs[k]));
      if (j === undefined) continue;
      pairs.push([i, j]);
      freeB.delete(i);
      freeH.delete(j);
    }
  };
  pass((x, y) => canonText(x) === canonText(y));
  pass((x, y) => defKey(x) !== undefined && defKey(x) === defKey(y));
  const typeOf = (x: unknown) => {
    const c = canon(x);
    return isObj(c) && c['type'] !== undefined ? JSON.stringify(c['type']) : undefined;
  };
  pass((x, y) => typeOf(x) !== undefined && typeOf(x) === typeOf(y));
  if (freeB.size === freeH.size) {
    const rest = [...freeH];
    [...freeB].forEach((i, n) => pairs.push([i, rest[n] as number]));
    freeB.clear();
    freeH.clear();
  }
  return pairs.sort((x, y) => x[0] - y[0]);
}

/** What the parts of an `allOf` add up to (properties and required merged), one level deep. */
export function flatten(space: SchemaSpace, s: Obj, depth = 0): Obj {
  const parts = Array.isArray(s['allOf']) ? s['allOf'] : [];
  const out: Obj = { ...s };
  delete out['allOf'];
  if (depth > 8) return out;
  for (const part of parts) {
    const r = resolve(space, part, undefined);
    const v = view(space, r.schema, undefined);
    const flat = flatten(space, v.s, depth + 1);
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties' && isObj(value)) {
        out['properties'] = { ...value, ...(isObj(out['properties']) ? out['properties'] : {}) };
      } else if (key === 'required' && Array.isArray(value)) {
        const own = Array.isArray(out['required']) ? out['required'] : [];
        out['required'] = [...new Set([...own, ...value])].sort();
      } else if (out[key] === undefined) {
        out[key] = value;
      }
    }
  }
  return out;
}
