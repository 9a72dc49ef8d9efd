/** Schemas as the comparison sees them: references followed, canonical, `null` split off. */
import { isObject as isObj, type Obj } from '../../model/object.ts';
import { canon, defKey, type SchemaSpace } from './canon.ts';
import type { RuleId } from './rules.ts';
import type { Side } from './types.ts';
import { child, type SchemaContext, type Where } from './walk-context.ts';

/** A schema ready for comparison: references followed, canonical, `null` split off. */
export interface View {
  s: Obj;
  nullable: boolean;
  /** Set when the schema is `false` (nothing allowed). */
  never: boolean;
  pointer?: string;
}

/** Follows `$ref`s to the schema, and to where it is written when the description names it. */
export function resolve(space: SchemaSpace, schema: unknown, pointer: string | undefined) {
  let node = schema;
  let at = pointer;
  for (let hops = 0; hops < 32; hops++) {
    const key = defKey(node);
    if (key === undefined) break;
    const target = space.def(key);
    if (target === undefined) break;
    const siblings = { ...(node as Obj) };
    delete siblings['$ref'];
    node = Object.keys(siblings).length > 0 && isObj(target) ? { ...target, ...siblings } : target;
    at = space.pointerOf(key) ?? at;
  }
  return { schema: node, pointer: at };
}

/** Follows references, also those a wrapper stands for (`allOf: [X]` alone is X). */
export function settle(space: SchemaSpace, schema: unknown, pointer: string | undefined) {
  let r = resolve(space, schema, pointer);
  for (let hops = 0; hops < 8; hops++) {
    const c = canon(r.schema);
    if (defKey(c) === undefined || Object.keys(c as Obj).length !== 1) break;
    r = resolve(space, c, r.pointer);
  }
  return r;
}

export function view(space: SchemaSpace, schema: unknown, pointer: string | undefined): View {
  const c = canon(schema);
  if (c === false) return { s: {}, nullable: false, never: true, ...(pointer ? { pointer } : {}) };
  const s = isObj(c) ? c : {};
  const alt = s['anyOf'];
  if (Array.isArray(alt) && alt.length === 2 && Object.keys(s).length === 1) {
    const i = alt.findIndex((a) => isObj(a) && JSON.stringify(a['type']) === '["null"]');
    if (i !== -1) {
      const inner = resolve(space, alt[1 - i], pointer);
      return { ...view(space, inner.schema, inner.pointer), nullable: true };
    }
  }
  const type = s['type'];
  if (Array.isArray(type) && type.includes('null') && type.length > 1) {
    return {
      s: { ...s, type: type.filter((t) => t !== 'null') },
      nullable: true,
      never: false,
      ...(pointer ? { pointer } : {}),
    };
  }
  return { s, nullable: false, never: false, ...(pointer ? { pointer } : {}) };
}

export function emitAt(
  ctx: SchemaContext,
  rule: RuleId,
  side: Side,
  where: Where,
  tokens: string[],
  message: string,
): void {
  const at = child(where, tokens, where.label);
  ctx.emit(rule, side, side === 'base' ? at.base : at.head, message);
}
