/**
 * What mainstream tools read (swagger-parser's dereference resolves every `$ref` and checks no
 * schema) but the OpenAPI schema of the document's version refuses, read the way dereference
 * reads it, each a warning at the place written:
 *
 * - a `$ref` where OpenAPI allows no Reference Object (a response's whole `content` map, a media
 *   type, an encoding taken from another file): replaced by a copy of what it names, its other
 *   keys kept beside (`spec-ref-misplaced`);
 * - OpenAPI 3.1 (JSON Schema 2020-12) inside a 3.0 schema (`type: 'null'`, a list of types,
 *   `const`, `examples`, a numeric exclusive bound, ...): kept as written, so that the model reads
 *   it as 3.1 reads it, and hidden from the 3.0 check only (`schema-openapi31-in-30`).
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken, joinPointer, splitPointer } from '../model/pointer.ts';
import { define, getAt, plainPointer, tokensOf } from './load-hoist.ts';
import type { LoadRepair } from './load-repair.ts';

export interface AjvLikeError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** A repair, and for one that only hides a keyword from the check, how to put it back. */
export interface Mend {
  repair: LoadRepair;
  restore?: () => void;
}

/** JSON Schema 2020-12 keywords a 3.0 Schema Object does not have. */
const KEYWORDS_2020 = new Set([
  'const',
  'examples',
  '$defs',
  '$id',
  '$schema',
  '$comment',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'patternProperties',
]);
const TYPE_NAMES = new Set(['null', 'string', 'number', 'integer', 'boolean', 'object', 'array']);

/** Whether the pointer's tokens lie inside a schema (a media type's, a parameter's or a component). */
export function inSchema(tokens: string[]): boolean {
  return tokens.some(
    (t, i) => t === 'schema' || (t === 'schemas' && tokens[i - 1] === 'components'),
  );
}

/** The key of a 3.0 schema at `tokens` whose value is 3.1's, when the error is about one. */
function construct31(document: Obj, e: AjvLikeError, tokens: string[]): [Obj, string] | undefined {
  const extra = e.params?.['additionalProperty'];
  if (e.keyword === 'additionalProperties' && typeof extra === 'string') {
    const holder = getAt(document, tokens);
    return KEYWORDS_2020.has(extra) && isObject(holder) && Object.hasOwn(holder, extra)
      ? [holder, extra]
      : undefined;
  }
  const key = tokens.at(-1);
  const holder = getAt(document, tokens.slice(0, -1));
  if (key === undefined || !isObject(holder) || !Object.hasOwn(holder, key)) return undefined;
  const value = holder[key];
  if (key === 'type') {
    const names = Array.isArray(value) ? value : [value];
    const all = names.length > 0 && names.every((n) => TYPE_NAMES.has(n as string));
    return all && (Array.isArray(value) || value === 'null') ? [holder, key] : undefined;
  }
  if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number')
    return [holder, key];
  return undefined;
}

/** A 3.1 construct in a 3.0 schema: hidden from the check, put back once it passes. */
export function mendOpenApi31(document: Obj, e: AjvLikeError): Mend | undefined {
  if (!String(document['openapi']).startsWith('3.0')) return undefined;
  const tokens = splitPointer(e.instancePath ?? '');
  if (!inSchema(tokens)) return undefined;
  const found = construct31(document, e, tokens);
  if (!found) return undefined;
  const [holder, key] = found;
  const value = holder[key];
  delete holder[key];
  const pointer = joinPointer(
    ...(e.keyword === 'additionalProperties' ? [...tokens, key] : tokens),
  );
  return {
    repair: {
      code: 'schema-openapi31-in-30',
      pointer,
      message: `${key}: ${JSON.stringify(value)} is OpenAPI 3.1 (JSON Schema 2020-12), not 3.0: read as 3.1 reads it`,
    },
    restore: () => define(holder, key, value),
  };
}

/**
 * A `$ref` the OpenAPI schema refuses where it stands (the error is about the `$ref` key or its
 * string value): the object there becomes a copy of what it names. `onTarget` is told the
 * pointer named (which may itself be a `$ref` the author wrote, and the bundler inlined).
 */
export function mendMisplacedRef(
  document: Obj,
  e: AjvLikeError,
  onTarget: (pointer: string) => void = () => undefined,
): Mend | undefined {
  const tokens = splitPointer(e.instancePath ?? '');
  const extra = e.params?.['additionalProperty'];
  let at: string[];
  if (tokens.at(-1) === '$ref') at = tokens.slice(0, -1);
  else if (e.keyword === 'additionalProperties' && extra === '$ref') at = tokens;
  else return undefined;
  const last = at.at(-1);
  const parent = getAt(document, at.slice(0, -1));
  const holder = getAt(document, at);
  if (last === undefined || !isObject(holder) || (!isObject(parent) && !Array.isArray(parent)))
    return undefined;
  const here = joinPointer(...at);
  const named = refTarget(document, holder['$ref'], here);
  if (!named) return undefined;
  const { $ref: _ref, ...siblings } = holder;
  const copy = { ...(structuredClone(named.node) as Obj), ...siblings };
  if (Array.isArray(parent)) parent[Number(last)] = copy;
  else define(parent, last, copy);
  onTarget(named.target);
  return { repair: misplacedRef(here) };
}

/**
 * The object a local `$ref` written at `here` names, through a chain of references to the one at
 * its end; undefined when it names nothing, or `here`'s own ancestor (a copy would hold the same
 * `$ref` again).
 */
export function refTarget(
  document: Obj,
  ref: unknown,
  here: string,
): { target: string; node: Obj } | undefined {
  let target = plainPointer(ref);
  let node: unknown;
  for (let hops = 0; target !== undefined && hops < 20; hops++) {
    node = getAt(document, tokensOf(target));
    const next = isObject(node) ? plainPointer(node['$ref']) : undefined;
    if (next === undefined) break;
    target = next;
  }
  if (target === undefined || !isObject(node) || `${here}/`.startsWith(`${target}/`))
    return undefined;
  return { target, node };
}

/** The warning about a misplaced `$ref` written at `pointer`. */
export function misplacedRef(pointer: string): LoadRepair {
  const last = splitPointer(pointer).at(-1) ?? '';
  return {
    code: 'spec-ref-misplaced',
    pointer,
    message: `a $ref where OpenAPI allows none (at ${escapeToken(last)}): read as the object it names, as swagger-parser's dereference reads it`,
  };
}
