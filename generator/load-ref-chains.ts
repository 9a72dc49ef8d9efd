/**
 * A `$ref` whose pointer goes through another `$ref` (`#/paths/~1a/post/.../schema/properties/b`
 * where `schema` is itself a `$ref`): an author's shortcut (corpus noditlabs blockchain), or the
 * bundler's, which points a later use of a file's schema into the place it inlined the first
 * (OpenSearch snapshot). swagger-parser resolves it by following the `$ref`s on the way;
 * openapi-typescript writes it as an indexed access into a type that has no such property
 * (TS2339), and the hoisting of deep refs (load-hoist.ts) finds nothing at it. Each is rewritten,
 * before the hoisting, to the place it resolves to.
 */
import { isObject, type Obj } from '../model/object.ts';
import { joinPointer } from '../model/pointer.ts';
import { getAt, plainPointer, tokensOf } from './load-hoist.ts';

/** Keys whose values are data, not description: a `$ref` there is not one. */
const DATA = new Set(['example', 'examples', 'enum', 'const']);

/**
 * The tokens of the place `tokens` leads to when each `$ref` met on the way (lacking the next
 * token) is followed; undefined when it leads nowhere or round in a circle.
 */
export function resolveThrough(
  doc: Obj,
  tokens: string[],
  seen: Set<string> = new Set(),
): string[] | undefined {
  let at: string[] = [];
  let node: unknown = doc;
  for (const token of tokens) {
    while (isObject(node) && typeof node['$ref'] === 'string' && !Object.hasOwn(node, token)) {
      const ref = plainPointer(node['$ref']);
      if (ref === undefined || seen.has(ref)) return undefined;
      seen.add(ref);
      const next = resolveThrough(doc, tokensOf(ref), seen);
      if (next === undefined) return undefined;
      at = next;
      node = getAt(doc, at);
    }
    node = getAt(node, [token]);
    if (node === undefined) return undefined;
    at = [...at, token];
  }
  return at;
}

/** Whether walking `tokens` as written meets a `$ref` that lacks the next token. */
export function passesThroughRef(doc: Obj, tokens: string[]): boolean {
  let node: unknown = doc;
  for (const token of tokens) {
    if (isObject(node) && typeof node['$ref'] === 'string' && !Object.hasOwn(node, token))
      return true;
    node = getAt(node, [token]);
    if (node === undefined) return false;
  }
  return false;
}

/** Rewrites, in place, each internal `$ref` through a `$ref` to where it resolves. */
export function resolveRefChains(doc: Obj): void {
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const pointer = plainPointer(node['$ref']);
    if (pointer !== undefined) {
      const tokens = tokensOf(pointer);
      if (getAt(doc, tokens) === undefined && passesThroughRef(doc, tokens)) {
        const resolved = resolveThrough(doc, tokens);
        if (resolved !== undefined) node['$ref'] = '#' + encodeURI(joinPointer(...resolved));
      }
    }
    for (const [k, v] of Object.entries(node)) if (!DATA.has(k)) visit(v);
  };
  visit(doc);
}
