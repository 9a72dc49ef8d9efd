/**
 * Keyword repairs: a schema keyword whose value JSON Schema 2020-12 (and so Ajv) cannot take is
 * dropped or mended here, with a located finding, so one bad schema never stops a run or takes
 * other operations down. Covers what real descriptions carry: `enum: []`, duplicate `required`
 * items, 2019-09 `$recursiveRef`/`$recursiveAnchor`, patterns JavaScript cannot compile, unknown
 * `type` names, and bounds that are not numbers.
 */
import type { ModelFindingCode } from '../../model/diagnostics.ts';
import type { Findings } from './findings.ts';
import { COUNTS, NUMBERS } from './schema-keywords.ts';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
/** What to do with one keyword: keep a (possibly mended) value, or drop it. */
export type Repair = { keep: true; value: unknown } | { keep: false };

const keep = (value: unknown): Repair => ({ keep: true, value });
const DROP: Repair = { keep: false };

export function validPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Checks one keyword's value; `at` is the keyword's pointer, `recursion` the `$recursiveRef` target. */
export function repairKeyword(
  key: string,
  value: unknown,
  at: string,
  findings: Findings,
  recursion: string | undefined,
): Repair {
  const drop = (code: ModelFindingCode, message: string): Repair => {
    findings.add(code, at, message);
    return DROP;
  };
  if (key === 'enum') {
    if (!Array.isArray(value)) return drop('schema-bad-keyword', 'enum must be a list: ignored');
    if (value.length === 0) return drop('schema-empty-enum', 'enum: [] allows no value: ignored');
    return keep(value);
  }
  if (key === 'required') {
    if (!Array.isArray(value))
      return drop('schema-bad-keyword', 'required must be a list: ignored');
    const names = [...new Set(value.filter((v): v is string => typeof v === 'string'))];
    if (names.length !== value.length)
      findings.add(
        'schema-duplicate-required',
        at,
        'required lists a name twice (or a non-name): deduplicated',
      );
    return keep(names);
  }
  if (key === 'type') return repairType(value, at, findings);
  if (key === 'pattern') {
    if (typeof value === 'string' && validPattern(value)) return keep(value);
    return drop(
      'schema-bad-pattern',
      `pattern ${JSON.stringify(value)} is not a JavaScript (u) regular expression: ignored`,
    );
  }
  // Ajv knows only its own dialect's meta-schema: another `$schema` stopped every validator.
  if (key === '$schema' && value !== 'https://json-schema.org/draft/2020-12/schema')
    return drop(
      'schema-dialect',
      `$schema ${JSON.stringify(value)}: read as JSON Schema 2020-12, the dialect of OpenAPI 3.1`,
    );
  if (key === '$recursiveAnchor')
    return drop(
      'schema-2019-09-keyword',
      '$recursiveAnchor (JSON Schema 2019-09) has no 2020-12 meaning here: ignored',
    );
  if (key === '$recursiveRef') {
    findings.add(
      'schema-2019-09-keyword',
      at,
      recursion
        ? '$recursiveRef (JSON Schema 2019-09) read as a $ref to its enclosing schema'
        : '$recursiveRef (JSON Schema 2019-09) outside a named schema: accepts anything',
    );
    return recursion ? keep(recursion) : DROP;
  }
  if (COUNTS.includes(key) && !(Number.isInteger(value) && (value as number) >= 0))
    return drop('schema-bad-keyword', `${key} must be a non-negative integer: ignored`);
  if (NUMBERS.includes(key) && typeof value !== 'number' && typeof value !== 'boolean')
    return drop('schema-bad-keyword', `${key} must be a number: ignored`);
  if (key === 'multipleOf' && !(typeof value === 'number' && value > 0))
    return drop('schema-bad-keyword', 'multipleOf must be a number above 0: ignored');
  if (
    (key === 'format' || key === 'contentMediaType' || key === 'contentEncoding') &&
    typeof value !== 'string'
  )
    return drop('schema-bad-keyword', `${key} must be a string: ignored`);
  // A map of Example Objects (the media type's `examples`) written in a schema (codat.io/assess):
  // 2020-12's `examples` is a list, and Ajv compiled no validator with the map.
  if (key === 'examples' && !Array.isArray(value))
    return drop('schema-bad-keyword', 'examples must be a list: ignored');
  if (key === 'uniqueItems' && typeof value !== 'boolean')
    return drop('schema-bad-keyword', 'uniqueItems must be true or false: ignored');
  return keep(value);
}

function repairType(value: unknown, at: string, findings: Findings): Repair {
  const list = Array.isArray(value) ? value : [value];
  const known = [
    ...new Set(list.filter((t): t is string => typeof t === 'string' && TYPES.has(t))),
  ];
  if (known.length === list.length && (Array.isArray(value) ? known.length > 0 : true))
    return keep(value);
  findings.add(
    'schema-bad-type',
    at,
    `type ${JSON.stringify(value)} names no JSON Schema type${known.length > 0 ? `: kept ${known.join(', ')}` : ': ignored'}`,
  );
  if (known.length === 0) return DROP;
  return keep(known.length === 1 ? known[0] : known);
}

/**
 * Whether a `default` fits its own schema's `type`, `enum` and `const` (read where it is written,
 * without following references: cheap, and what real descriptions get wrong, e.g.
 * `default: "null"` on an integer). A server fills a default in where the value is missing; an
 * invalid one would make it refuse every request that leaves the field out.
 */
export function defaultFits(schema: Record<string, unknown>, value: unknown): boolean {
  if (value === null && (schema['nullable'] === true || schema['x-nullable'] === true)) return true;
  if (Array.isArray(schema['enum']) && !schema['enum'].some((v) => sameJson(v, value)))
    return false;
  if ('const' in schema && !sameJson(schema['const'], value)) return false;
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  if (schema['type'] === undefined) return true;
  return types.some((t) => typeof t !== 'string' || !TYPES.has(t) || isOfType(t, value));
}

function isOfType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
