/** JSON pointer helpers and `$ref` resolution inside one bundled document. */
import { splitPointer } from '../load.ts';

export type Obj = { [key: string]: unknown };

export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Sets an own, enumerable property, even one named `__proto__` (plain assignment would set the
 * object's prototype instead and lose a property a description may well have).
 */
export function setOwn(obj: Obj, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => '/' + escapeToken(String(t))).join('');
}

export function getAt(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of splitPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObj(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** The internal pointer of a `$ref`, or undefined for none. */
export function refPointer(value: unknown): string | undefined {
  if (!isObj(value) || typeof value['$ref'] !== 'string') return undefined;
  const ref = value['$ref'];
  return ref.startsWith('#') ? ref.slice(1) : undefined;
}

/** Follows `$ref`s (of parameters, responses, bodies, headers, examples) to the object. */
export function resolve(doc: unknown, value: unknown, seen = new Set<string>()): unknown {
  const pointer = refPointer(value);
  if (pointer === undefined || seen.has(pointer)) return value;
  seen.add(pointer);
  return resolve(doc, getAt(doc, pointer), seen);
}
