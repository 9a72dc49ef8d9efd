/**
 * Hoisting of deep schema references in a bundled document.
 *
 * Bundling a split description inlines each external schema where it is first met and points
 * the other uses there, e.g. `#/components/schemas/Pet/allOf/0`. openapi-typescript turns such a
 * pointer into an indexed access type (`components["schemas"]["Pet"]["allOf"]["0"]`) that does
 * not compile. Every schema reached by a pointer deeper than `#/components/schemas/<name>` is
 * moved to `components.schemas` under a derived name, left behind as a `$ref` to its new home.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken, fragmentToPointer, unescapeToken } from '../model/pointer.ts';

// Plain pointers (a `$ref`'s fragment percent-decoded first): no percent-decoding here.
export const tokensOf = (pointer: string) =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);

/** Keys under which a `$ref` stands for a schema. */
export const SCHEMA_CONTEXT = new Set([
  'schema',
  'schemas',
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'additionalProperties',
  '$defs',
  'definitions',
  'contains',
  'if',
  'then',
  'else',
]);

export function getAt(doc: unknown, tokens: string[]): unknown {
  let node = doc;
  for (const t of tokens) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObject(node) && Object.hasOwn(node, t)) node = node[t];
    else return undefined;
  }
  return node;
}

/** Where a reference is written: the object and its key (`$ref`, or a discriminator mapping's). */
type Holder = [Obj, string];

const isDeep = (pointer: string) => !/^\/components\/schemas\/[^/]+$/.test(pointer);

/**
 * Internal schema refs deeper than a component, with where each target pointer is written: the
 * `$ref`s in schema places, and discriminator mapping values (references written as strings).
 */
function deepSchemaRefs(doc: Obj): Map<string, Holder[]> {
  const found = new Map<string, Holder[]>();
  const add = (ref: unknown, holder: Holder) => {
    const pointer = plainPointer(ref);
    if (pointer === undefined || !isDeep(pointer)) return;
    found.set(pointer, [...(found.get(pointer) ?? []), holder]);
  };
  const visit = (node: unknown, inSchema: boolean) => {
    if (Array.isArray(node)) {
      node.forEach((v) => visit(v, inSchema));
      return;
    }
    if (!isObject(node)) return;
    if (inSchema) add(node['$ref'], [node, '$ref']);
    const disc = node['discriminator'];
    if (inSchema && isObject(disc) && isObject(disc['mapping'])) {
      const mapping = disc['mapping'];
      for (const key of Object.keys(mapping)) add(mapping[key], [mapping, key]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
      visit(value, inSchema || SCHEMA_CONTEXT.has(key));
    }
  };
  visit(doc, false);
  return found;
}

/**
 * The plain pointer of an internal reference: its fragment percent-decoded (`%7Bid%7D` of a path
 * `/things/{id}`, as written by converters), undefined for another or a malformed reference (the
 * loader has already reported that one).
 */
export function plainPointer(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  try {
    return fragmentToPointer(ref);
  } catch {
    return undefined;
  }
}

/**
 * `text` as a component name: each run of characters outside `[A-Za-z0-9_.-]` as one `_` (with
 * `trim`, none left at either end), at most 60 characters; empty when nothing is left.
 */
export function cleanName(text: string, trim = false): string {
  const clean = text.replace(/[^A-Za-z0-9_.-]+/g, '_');
  return (trim ? clean.replace(/^_+|_+$/g, '') : clean).slice(0, 60);
}

/** `base`, else `base_2`, `base_3`, ...: the first name `taken` does not have yet. */
export function uniqueName(base: string, taken: Obj): string {
  let name = base;
  for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base}_${n}`;
  return name;
}

function nameFor(tokens: string[], taken: Obj, hint: string | undefined): string {
  const meaningful = tokens.filter(
    (t) => !['components', 'schemas', 'paths', 'content', 'schema', 'properties'].includes(t),
  );
  const base = cleanName(hint ?? '', true) || cleanName(meaningful.join('_'), true) || 'Schema';
  return uniqueName(base, taken);
}

/**
 * Hoists deep schema refs into `components.schemas`, in place, until none is left. Each round
 * moves every targeted schema that is not inside another targeted one (moving one never shifts
 * another's pointer), then points the refs into a moved schema at its new home; refs that are
 * still deep (into a moved schema's inside) wait for the next round. Each schema moves at most
 * once, so the rounds end: as many as targets nest, however many targets there are.
 */
export function hoistDeepSchemaRefs(
  doc: Obj,
  /** The author's name for what sits at a pointer (see SpecFiles.refNameAt). */
  nameHint: (pointer: string) => string | undefined = () => undefined,
  /** Told each move (plain pointers), so that a place in a moved schema is traced to its source. */
  onMove: (home: string, from: string) => void = () => undefined,
): void {
  for (;;) {
    const refs = deepSchemaRefs(doc);
    // Shallowest first: a target inside another one waits until the outer one has moved.
    const ordered = [...refs].sort((a, b) => a[0].length - b[0].length);
    const moved = new Map<string, string>();
    for (const [pointer, holders] of ordered) {
      if (insideOneOf(pointer, moved)) continue;
      const home = hoistOne(doc, pointer, nameHint);
      if (home === undefined) continue; // a dangling ref: load has already reported it
      moved.set(pointer, home);
      onMove(home.slice(1), pointer);
      for (const [h, key] of holders) h[key] = home;
    }
    if (moved.size === 0) return;
    rewriteInto(doc, moved);
  }
}

/** Whether one of the pointers in `moved` is a proper prefix of `pointer`. */
function insideOneOf(pointer: string, moved: Map<string, string>): boolean {
  for (let i = pointer.indexOf('/', 1); i > 0; i = pointer.indexOf('/', i + 1))
    if (moved.has(pointer.slice(0, i))) return true;
  return false;
}

/** Moves the schema at `pointer` to components.schemas, leaving a `$ref`; its new home. */
function hoistOne(
  doc: Obj,
  pointer: string,
  nameHint: (pointer: string) => string | undefined,
): string | undefined {
  const tokens = tokensOf(pointer);
  const parent = getAt(doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  const target = getAt(doc, tokens);
  if (last === undefined || target === undefined || (!isObject(parent) && !Array.isArray(parent)))
    return undefined;
  const components = isObject(doc['components']) ? doc['components'] : (doc['components'] = {});
  const schemas = isObject(components['schemas'])
    ? components['schemas']
    : (components['schemas'] = {});
  const name = nameFor(tokens, schemas, nameHint(pointer));
  const home = `#/components/schemas/${escapeToken(name)}`;
  define(schemas, name, target);
  const stub = { $ref: home };
  if (Array.isArray(parent)) parent[Number(last)] = stub;
  else define(parent, last, stub);
  return home;
}

// defineProperty, not assignment: a key such as `__proto__` stays an own property.
export const define = (o: Obj, key: string, value: unknown) =>
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });

/** Refs into a moved schema now start at its new home (one walk for the whole round). */
export function rewriteInto(doc: Obj, moved: Map<string, string>): void {
  const moveRef = (ref: unknown): unknown => {
    const pointer = plainPointer(ref);
    if (pointer === undefined) return ref;
    // The moved pointers are disjoint: at most one is a prefix of this ref.
    for (let i = pointer.indexOf('/', 1); i > 0; i = pointer.indexOf('/', i + 1)) {
      const home = moved.get(pointer.slice(0, i));
      if (home !== undefined) return home + encodeURI(pointer.slice(i));
    }
    return ref;
  };
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node)) {
      if (typeof node['$ref'] === 'string') node['$ref'] = moveRef(node['$ref']);
      const disc = node['discriminator'];
      if (isObject(disc) && isObject(disc['mapping'])) {
        const mapping = disc['mapping'];
        for (const key of Object.keys(mapping)) mapping[key] = moveRef(mapping[key]);
      }
      for (const v of Object.values(node)) visit(v);
    }
  };
  visit(doc);
}
