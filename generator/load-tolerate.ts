/**
 * More of what swagger-parser's dereference reads (it checks no schema) and the OpenAPI schema of
 * the document's version refuses (corpus "second", issue 48): each read the way dereference reads
 * it, with a warning at the place written. Objects are kept as written wherever the model reads
 * them as they are; the check only is told otherwise (a `restore` puts them back once it passes).
 *
 * - a required field left out (a response's `description`, the root's `info`) or written empty
 *   (`description:` with no value), and a map (`content:`) written empty: `spec-missing-field`;
 * - a component name with characters OpenAPI does not allow (`ltr.stats::path.node_id`):
 *   `spec-component-name`;
 * - a path parameter written `required: false` (a path parameter is always required):
 *   `spec-path-parameter-optional`;
 * - `$ref` beside keys a Reference Object does not have (`required: true`, `name`, `in`): read as
 *   the object it names with those keys over it, as dereference merges them: `spec-ref-siblings`;
 * - a schema keyword OpenAPI 3.0 does not have (`optional: true`, a misspelt `propoerties`), or a
 *   `type` that is no JSON type (`type: int64`): ignored, `schema-unknown-keyword`.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken, joinPointer, splitPointer } from '../model/pointer.ts';
import { define, getAt } from './load-hoist.ts';
import { inSchema, refTarget, type AjvLikeError, type Mend } from './load-off-spec.ts';

/** Fields the model reads as absent when they are: hidden from the check with a placeholder. */
const PLACEHOLDER: Record<string, (tokens: string[]) => unknown> = {
  description: (t) => (t.at(-2) === 'responses' ? '' : undefined),
  info: (t) => (t.length === 0 ? { title: '', version: '' } : undefined),
  title: (t) => (t.length === 1 && t[0] === 'info' ? '' : undefined),
  version: (t) => (t.length === 1 && t[0] === 'info' ? '' : undefined),
  content: (t) => (t.at(-1) === 'requestBody' || t.at(-2) === 'requestBodies' ? {} : undefined),
};

/** A required field the author left out: hidden from the check, absent for the model. */
export function mendMissingField(document: Obj, e: AjvLikeError): Mend | undefined {
  const name = e.params?.['missingProperty'];
  if (e.keyword !== 'required' || typeof name !== 'string' || !Object.hasOwn(PLACEHOLDER, name))
    return undefined;
  const tokens = splitPointer(e.instancePath ?? '');
  if (inSchema(tokens)) return undefined;
  const holder = getAt(document, tokens);
  const placeholder = PLACEHOLDER[name]?.(tokens);
  if (placeholder === undefined || !isObject(holder) || Object.hasOwn(holder, name))
    return undefined;
  define(holder, name, placeholder);
  return {
    repair: {
      code: 'spec-missing-field',
      pointer: joinPointer(...tokens),
      message: `${name} is required here and missing: read without it, as swagger-parser's dereference reads it`,
    },
    restore: () => delete holder[name],
  };
}

/**
 * A field written with no value (`description:` alone, a YAML null) where OpenAPI wants a string
 * or an object: dropped (the model reads it as absent), then a required one is a missing field.
 */
export function mendNullField(document: Obj, e: AjvLikeError): Mend | undefined {
  const tokens = splitPointer(e.instancePath ?? '');
  const key = tokens.at(-1);
  if (e.keyword !== 'type' || key === undefined || inSchema(tokens)) return undefined;
  const holder = getAt(document, tokens.slice(0, -1));
  if (!isObject(holder) || !Object.hasOwn(holder, key) || holder[key] !== null) return undefined;
  delete holder[key];
  return {
    repair: {
      code: 'spec-missing-field',
      pointer: joinPointer(...tokens),
      message: `${key} is written with no value: read as absent`,
    },
  };
}

/** A component name OpenAPI's pattern refuses: renamed for the check only. */
export function mendComponentName(document: Obj, e: AjvLikeError): Mend | undefined {
  const name = e.params?.['propertyName'] ?? (e as { propertyName?: unknown }).propertyName;
  const tokens = splitPointer(e.instancePath ?? '');
  if (e.keyword !== 'propertyNames' || typeof name !== 'string') return undefined;
  if (tokens.length !== 2 || tokens[0] !== 'components') return undefined;
  const map = getAt(document, tokens);
  if (!isObject(map) || !Object.hasOwn(map, name)) return undefined;
  let safe = name.replace(/[^a-zA-Z0-9._-]/g, '_');
  while (Object.hasOwn(map, safe)) safe += '_';
  const value = map[name];
  delete map[name];
  define(map, safe, value);
  return {
    repair: {
      code: 'spec-component-name',
      pointer: joinPointer(...tokens, name),
      message: `the component name ${JSON.stringify(name)} has characters OpenAPI does not allow in one (it allows a-z A-Z 0-9 . _ -): read as written`,
    },
    // Back under its own name, in its place among the others.
    restore: () => {
      const entries = Object.entries(map).map(([k, v]) => [k === safe ? name : k, v] as const);
      for (const k of Object.keys(map)) delete map[k];
      for (const [k, v] of entries) define(map, k, v);
    },
  };
}

/** `required: false` on a path parameter: read as required, as OpenAPI says it always is. */
export function mendPathParameterOptional(document: Obj, e: AjvLikeError): Mend | undefined {
  const tokens = splitPointer(e.instancePath ?? '');
  if (tokens.at(-1) !== 'required' || (e.keyword !== 'const' && e.keyword !== 'enum'))
    return undefined;
  const holder = getAt(document, tokens.slice(0, -1));
  if (!isObject(holder) || holder['in'] !== 'path' || holder['required'] === true) return undefined;
  const was = holder['required'];
  holder['required'] = true;
  return {
    repair: {
      code: 'spec-path-parameter-optional',
      pointer: joinPointer(...tokens),
      message: `a path parameter written required: ${JSON.stringify(was)}: read as required (a path parameter always is)`,
    },
  };
}

/**
 * An object of a `$ref` and keys a Reference Object does not have: what the `$ref` names, with
 * those keys over it (json-schema-ref-parser's reading of an "extended" `$ref`). `copyOf` gives
 * the object a local `$ref` names (undefined when it names nothing).
 */
export function mendRefSiblings(
  document: Obj,
  e: AjvLikeError,
  copyOf: (ref: unknown, here: string) => Obj | undefined,
): Mend | undefined {
  const extra = e.params?.['additionalProperty'] ?? e.params?.['unevaluatedProperty'];
  if (typeof extra !== 'string' || extra === '$ref') return undefined;
  const tokens = splitPointer(e.instancePath ?? '');
  if (inSchema(tokens)) return undefined; // a schema's `$ref` siblings are JSON Schema's business
  const last = tokens.at(-1);
  const parent = getAt(document, tokens.slice(0, -1));
  const holder = getAt(document, tokens);
  if (last === undefined || !isObject(holder) || typeof holder['$ref'] !== 'string')
    return undefined;
  if (!Object.hasOwn(holder, extra) || (!isObject(parent) && !Array.isArray(parent)))
    return undefined;
  const here = joinPointer(...tokens);
  const target = copyOf(holder['$ref'], here);
  if (!target) return undefined;
  const { $ref: _ref, ...siblings } = holder;
  const merged = { ...target, ...siblings };
  if (Array.isArray(parent)) parent[Number(last)] = merged;
  else define(parent, last, merged);
  return {
    repair: {
      code: 'spec-ref-siblings',
      pointer: here,
      message: `a $ref beside ${Object.keys(siblings)
        .map((k) => JSON.stringify(k))
        .join(
          ', ',
        )}, which a Reference Object does not have: read as the object it names with them over it, as swagger-parser's dereference reads it`,
    },
  };
}

/** Keywords of a schema in OpenAPI 3.0 or JSON Schema (whatever else a 3.0 schema holds is unknown). */
const SCHEMA_KEYWORDS = new Set(
  (
    'title multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength ' +
    'pattern maxItems minItems uniqueItems maxProperties minProperties required enum type allOf ' +
    'oneOf anyOf not items properties additionalProperties description format default nullable ' +
    'discriminator readOnly writeOnly example externalDocs deprecated xml $ref ' +
    'patternProperties additionalItems dependencies definitions id $schema'
  ).split(' '),
);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A keyword no schema has, or a `type` no JSON value has: ignored (3.0; 3.1 allows both). */
export function mendUnknownKeyword(document: Obj, e: AjvLikeError): Mend | undefined {
  const tokens = splitPointer(e.instancePath ?? '');
  if (!inSchema(tokens)) return undefined;
  const extra = e.params?.['additionalProperty'];
  let holder: unknown;
  let key: string;
  if (e.keyword === 'additionalProperties' && typeof extra === 'string') {
    if (extra.startsWith('x-') || SCHEMA_KEYWORDS.has(extra)) return undefined;
    holder = getAt(document, tokens);
    key = extra;
  } else if (e.keyword === 'enum' && tokens.at(-1) === 'type') {
    holder = getAt(document, tokens.slice(0, -1));
    key = 'type';
    if (isObject(holder) && TYPES.has(holder[key] as string)) return undefined;
  } else return undefined;
  if (!isObject(holder) || !Object.hasOwn(holder, key)) return undefined;
  const value = holder[key];
  delete holder[key];
  const pointer = key === 'type' ? joinPointer(...tokens) : `${e.instancePath}/${escapeToken(key)}`;
  return {
    repair: {
      code: 'schema-unknown-keyword',
      pointer,
      message:
        key === 'type'
          ? `type: ${JSON.stringify(value)} is not a JSON type: ignored (the schema reads as any type)`
          : `${key} is not a keyword of an OpenAPI 3.0 schema: ignored`,
    },
  };
}

const FIELDS: Record<string, Set<string>> = {
  parameter: new Set(
    'name in description required deprecated allowEmptyValue style explode allowReserved schema example examples content'.split(
      ' ',
    ),
  ),
  header: new Set(
    'description required deprecated allowEmptyValue style explode allowReserved schema example examples content'.split(
      ' ',
    ),
  ),
  requestBody: new Set(['description', 'content', 'required']),
  response: new Set(['description', 'headers', 'content', 'links']),
};

/** Which of FIELDS' objects the pointer names, from the map or list that holds it. */
function kindOf(tokens: string[]): string | undefined {
  const [a, b] = [tokens.at(-2), tokens.at(-3)];
  if (tokens.at(-1) === 'requestBody' || (a === 'requestBodies' && b === 'components'))
    return 'requestBody';
  if (a === 'parameters') return 'parameter';
  if (a === 'responses') return 'response';
  if (a === 'headers') return 'header';
  return undefined;
}

/**
 * A property a parameter, header, request body or response does not have (`enum` beside a
 * parameter's `schema`, a media type outdented out of `content`): ignored, as dereference leaves it.
 */
export function mendUnknownField(document: Obj, e: AjvLikeError): Mend | undefined {
  const extra = e.params?.['additionalProperty'] ?? e.params?.['unevaluatedProperty'];
  if (typeof extra !== 'string' || extra.startsWith('x-')) return undefined;
  const tokens = splitPointer(e.instancePath ?? '');
  const fields = FIELDS[kindOf(tokens) ?? ''];
  if (!fields || fields.has(extra) || inSchema(tokens)) return undefined;
  const holder = getAt(document, tokens);
  if (!isObject(holder) || Object.hasOwn(holder, '$ref') || !Object.hasOwn(holder, extra))
    return undefined;
  delete holder[extra];
  return {
    repair: {
      code: 'spec-unknown-property',
      pointer: `${e.instancePath}/${escapeToken(extra)}`,
      message: `#${e.instancePath} has no property ${JSON.stringify(extra)} in OpenAPI: ignored`,
    },
  };
}

/** The first of this module's mends that applies to the error. */
export function mendTolerated(document: Obj, e: AjvLikeError): Mend | undefined {
  const copyOf = (ref: unknown, here: string) => {
    const named = refTarget(document, ref, here);
    return named && (structuredClone(named.node) as Obj);
  };
  return (
    mendMissingField(document, e) ??
    mendNullField(document, e) ??
    mendComponentName(document, e) ??
    mendPathParameterOptional(document, e) ??
    mendRefSiblings(document, e, copyOf) ??
    mendUnknownKeyword(document, e) ??
    mendUnknownField(document, e) ??
    mendEmptyRequired(document, e)
  );
}

/** `required: []` in a 3.0 schema (3.0 wants at least one name): it requires nothing, dropped. */
export function mendEmptyRequired(document: Obj, e: AjvLikeError): Mend | undefined {
  const tokens = splitPointer(e.instancePath ?? '');
  if (e.keyword !== 'minItems' || tokens.at(-1) !== 'required' || !inSchema(tokens))
    return undefined;
  const holder = getAt(document, tokens.slice(0, -1));
  if (!isObject(holder) || !Array.isArray(holder['required']) || holder['required'].length > 0)
    return undefined;
  delete holder['required'];
  return {
    repair: {
      code: 'schema-bad-keyword',
      pointer: joinPointer(...tokens),
      message: 'required: [] names no property (OpenAPI 3.0 wants at least one): ignored',
    },
  };
}
