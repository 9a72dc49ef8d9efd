/**
 * Hoisting of parameter references into paths.
 *
 * Authors (and converters) reuse a parameter by pointing at another operation's list, e.g.
 * `#/paths/~1request/get/parameters/6`. openapi-typescript writes that as an indexed access into
 * the other operation (`paths["/request"]["get"]["parameters"]["query"]["withhistory"]`), which
 * does not compile when that operation's `query` group is optional (corpus: opensuse.org/obs).
 * Each such target moves to `components.parameters`, left behind as a `$ref` to its new home,
 * so every use reads `components["parameters"][name]`.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken } from '../model/pointer.ts';
import {
  cleanName,
  define,
  getAt,
  plainPointer,
  rewriteInto,
  SCHEMA_CONTEXT,
  tokensOf,
  uniqueName,
} from './load-hoist.ts';
import type { LoadRepair } from './load-repair.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const IN_PATHS = /^\/paths\/.+\/parameters\/\d+$/;

/** The `parameters` lists where a parameter `$ref` may be written. */
function parameterLists(doc: Obj): unknown[][] {
  const lists: unknown[][] = [];
  const take = (v: unknown) => {
    if (Array.isArray(v)) lists.push(v);
  };
  const paths = doc['paths'];
  for (const item of isObject(paths) ? Object.values(paths) : []) {
    if (!isObject(item)) continue;
    take(item['parameters']);
    for (const m of METHODS) if (isObject(item[m])) take((item[m] as Obj)['parameters']);
  }
  const components = doc['components'];
  const own = isObject(components) ? components['parameters'] : undefined;
  if (isObject(own)) lists.push(Object.values(own));
  return lists;
}

/** Moves every parameter a `$ref` points at inside `#/paths` to `components.parameters`. */
export function hoistPathParameterRefs(
  doc: Obj,
  /** Told each move (plain pointers), as hoistDeepSchemaRefs's `onMove`. */
  onMove: (home: string, from: string) => void = () => undefined,
): void {
  // A moved parameter may itself be a `$ref` into paths: rounds until none is left (each
  // target moves once, its old place then pointing into components).
  for (;;) {
    const targets = new Map<string, Obj[]>();
    for (const list of parameterLists(doc))
      for (const entry of list) {
        if (!isObject(entry)) continue;
        const pointer = plainPointer(entry['$ref']);
        if (pointer === undefined || !IN_PATHS.test(pointer)) continue;
        targets.set(pointer, [...(targets.get(pointer) ?? []), entry]);
      }
    const moved = new Map<string, string>();
    for (const [pointer, holders] of targets) {
      const home = moveParameter(doc, pointer);
      if (home === undefined) continue; // dangling: load has already reported it
      moved.set(pointer, home);
      onMove(home.slice(1), pointer);
      for (const h of holders) h['$ref'] = home;
    }
    if (moved.size === 0) return;
    // Refs into a moved parameter's inside (its schema, its examples) follow it.
    rewriteInto(doc, moved);
  }
}

function moveParameter(doc: Obj, pointer: string): string | undefined {
  const tokens = tokensOf(pointer);
  const list = getAt(doc, tokens.slice(0, -1));
  const index = Number(tokens[tokens.length - 1]);
  const target = Array.isArray(list) ? list[index] : undefined;
  if (!Array.isArray(list) || !isObject(target)) return undefined;
  const components = isObject(doc['components']) ? doc['components'] : (doc['components'] = {});
  const params = isObject(components['parameters'])
    ? components['parameters']
    : (components['parameters'] = {});
  const wanted = typeof target['name'] === 'string' ? target['name'] : 'Parameter';
  // Not trimmed, unlike a schema's name: `page[]` stays `page_`, as in suites generated before.
  const name = uniqueName(cleanName(wanted) || 'Parameter', params);
  const home = `#/components/parameters/${escapeToken(name)}`;
  define(params, name, target);
  list[index] = { $ref: home };
  return home;
}

/** A pointer at an object of paths that is not a schema: a parameter, a body, a response, a header. */
const NOT_A_SCHEMA = /\/(parameters\/\d+|requestBody|responses\/[^/]+|headers\/[^/]+)$/;

/**
 * Schema `$ref`s that point at a parameter, body, response or header object (corpus enode.io:
 * `items: { $ref: '#/paths/~1vehicles~1{id}/get/parameters/1' }`, meant for that parameter's
 * schema): hoisting would move the parameter into components.schemas, where the OpenAPI schema
 * refuses the whole description at a place the author never wrote. Such a `$ref` is dropped
 * (the schema read as {}) with a `schema-ref-not-schema` finding at the reference.
 */
export function dropRefsToNonSchemas(doc: Obj): LoadRepair[] {
  const repairs: LoadRepair[] = [];
  const visit = (node: unknown, inSchema: boolean, at: string) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, inSchema, `${at}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    const target = inSchema ? plainPointer(node['$ref']) : undefined;
    if (target !== undefined && target.startsWith('/paths/') && NOT_A_SCHEMA.test(target)) {
      repairs.push({
        code: 'schema-ref-not-schema',
        pointer: `${at}/$ref`,
        message: `the schema $ref #${target} names ${target.split('/').at(-2) === 'parameters' ? 'a parameter' : 'an object'} that is not a schema: read as {}`,
      });
      delete node['$ref'];
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
      visit(value, inSchema || SCHEMA_CONTEXT.has(key), `${at}/${escapeToken(key)}`);
    }
  };
  visit(doc, false, '');
  return repairs;
}
