/** `$ref` resolution inside one bundled OpenAPI document (the normaliser's and the linter's input). */
import { isObject } from './object.ts';
import { fragmentToPointer, splitPointer } from './pointer.ts';

/** The node a pointer names in a document, or undefined when it names nothing. */
export function getAt(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of splitPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** The internal pointer of a `$ref`, or undefined for none. */
export function refPointer(value: unknown): string | undefined {
  if (!isObject(value) || typeof value['$ref'] !== 'string') return undefined;
  const ref = value['$ref'];
  // The fragment is percent-encoded; the pointer returned is plain (PointerError if malformed).
  return ref.startsWith('#') ? fragmentToPointer(ref) : undefined;
}

/** Follows `$ref`s (of parameters, responses, bodies, headers, examples) to the object. */
export function resolve(doc: unknown, value: unknown, seen = new Set<string>()): unknown {
  const pointer = refPointer(value);
  if (pointer === undefined || seen.has(pointer)) return value;
  seen.add(pointer);
  return resolve(doc, getAt(doc, pointer), seen);
}

/** Follows `$ref`s from a pointer to the pointer of the object written there (cycles stop). */
export function followRefs(doc: unknown, pointer: string): string {
  const seen = new Set<string>();
  let at = pointer;
  for (;;) {
    const target = refPointer(getAt(doc, at));
    if (target === undefined || seen.has(target)) return at;
    seen.add(target);
    at = target;
  }
}
