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
import { escapeToken, unescapeToken } from '../model/pointer.ts';

// Pointers of the bundled tree, not URI fragments: no percent-decoding.
const tokensOf = (pointer: string) =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);

/** Keys under which a `$ref` stands for a schema. */
const SCHEMA_CONTEXT = new Set([
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

function getAt(doc: unknown, tokens: string[]): unknown {
  let node = doc;
  for (const t of tokens) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObject(node) && Object.hasOwn(node, t)) node = node[t];
    else return undefined;
  }
  return node;
}

/** Internal schema refs deeper than a component, with the pointer each one targets. */
function deepSchemaRefs(doc: Obj): Map<string, Obj[]> {
  const found = new Map<string, Obj[]>();
  const visit = (node: unknown, tokens: string[], inSchema: boolean) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, [...tokens, String(i)], inSchema));
      return;
    }
    if (!isObject(node)) return;
    const ref = node['$ref'];
    if (inSchema && typeof ref === 'string' && ref.startsWith('#/')) {
      const pointer = ref.slice(1);
      if (!/^\/components\/schemas\/[^/]+$/.test(pointer))
        found.set(pointer, [...(found.get(pointer) ?? []), node]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
      visit(value, [...tokens, key], inSchema || SCHEMA_CONTEXT.has(key));
    }
  };
  visit(doc, [], false);
  return found;
}

function nameFor(tokens: string[], taken: Obj, hint: string | undefined): string {
  const meaningful = tokens.filter(
    (t) => !['components', 'schemas', 'paths', 'content', 'schema', 'properties'].includes(t),
  );
  const base =
    (hint ?? '')
      .replace(/[^A-Za-z0-9_.-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) ||
    meaningful
      .join('_')
      .replace(/[^A-Za-z0-9_.-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) ||
    'Schema';
  let name = base;
  for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base}_${n}`;
  return name;
}

/** Hoists deep schema refs into `components.schemas`, in place. */
export function hoistDeepSchemaRefs(
  doc: Obj,
  /** The author's name for what sits at a pointer (see SpecFiles.refNameAt). */
  nameHint: (pointer: string) => string | undefined = () => undefined,
): void {
  for (let round = 0; round < 20; round++) {
    const refs = deepSchemaRefs(doc);
    if (refs.size === 0) return;
    // Shallowest first: hoisting a schema moves the pointers of everything inside it.
    const [pointer, holders] = [...refs].sort((a, b) => a[0].length - b[0].length)[0] as [
      string,
      Obj[],
    ];
    const tokens = tokensOf(pointer);
    const parent = getAt(doc, tokens.slice(0, -1));
    const last = tokens[tokens.length - 1];
    const target = getAt(doc, tokens);
    if (last === undefined || target === undefined || (!isObject(parent) && !Array.isArray(parent)))
      return; // a dangling ref: load has already reported it
    const components = isObject(doc['components']) ? doc['components'] : (doc['components'] = {});
    const schemas = isObject(components['schemas'])
      ? components['schemas']
      : (components['schemas'] = {});
    const name = nameFor(tokens, schemas, nameHint(pointer));
    const home = `#/components/schemas/${escapeToken(name)}`;
    Object.defineProperty(schemas, name, {
      value: target,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const stub = { $ref: home };
    if (Array.isArray(parent)) parent[Number(last)] = stub;
    else
      Object.defineProperty(parent, last, {
        value: stub,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    for (const h of holders) h['$ref'] = home;
    // Refs into the moved schema now start at its new home.
    const prefix = `#${pointer}/`;
    const rewrite = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(rewrite);
      else if (isObject(node)) {
        if (typeof node['$ref'] === 'string' && node['$ref'].startsWith(prefix))
          node['$ref'] = home + '/' + node['$ref'].slice(prefix.length);
        for (const v of Object.values(node)) rewrite(v);
      }
    };
    rewrite(doc);
  }
}
