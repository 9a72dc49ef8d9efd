/**
 * Schema normalisation: OpenAPI 3.0 / 3.1 Schema Objects to JSON Schema 2020-12.
 *
 * - 3.0 `nullable: true` becomes a `null` type (or an `anyOf` with null when there is no `type`),
 *   and `null` joins an `enum`.
 * - 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric 2020-12 form.
 * - In 3.0 the siblings of `$ref` are ignored (as the 3.0 spec says); in 3.1 they are kept.
 * - `example` becomes `examples`; vendor extensions, `xml`, `discriminator` and docs are dropped.
 * - Every internal `$ref` is hoisted into `$defs` of one root schema (SCHEMA_ROOT_ID) and rewritten
 *   to point there, so recursive schemas work and each schema compiles on its own with that root.
 */
import { unescapeToken } from '../../model/pointer.ts';
import { SCHEMA_ROOT_ID, type JsonSchema } from '../../model/types.ts';
import { isObject, setOwn, type Obj } from '../../model/object.ts';
import { getAt, refPointer } from '../../model/refs.ts';

const SCHEMA_MAP_KEYS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
];
const SCHEMA_KEYS = [
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];
const SCHEMA_LIST_KEYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const DROPPED = new Set([
  'xml',
  'externalDocs',
  'discriminator',
  'example',
  'nullable',
  'x-nullable',
]);

export class SchemaConverter {
  private readonly defs: Obj = {};
  private readonly keyOf = new Map<string, string>();
  private readonly usedKeys = new Set<string>();
  private readonly queue: string[] = [];

  constructor(
    private readonly document: Obj,
    private readonly is30: boolean,
  ) {}

  /** Converts one schema found at `pointer` (used only for messages). */
  convert(schema: unknown): JsonSchema {
    if (typeof schema === 'boolean') return schema;
    if (!isObject(schema)) return {};
    return this.walk(schema);
  }

  /** The root schema holding every hoisted `$ref` target. Call after all convert() calls. */
  root(): Obj {
    while (this.queue.length > 0) {
      const pointer = this.queue.shift() as string;
      const key = this.keyOf.get(pointer) as string;
      const target = getAt(this.document, pointer);
      this.defs[key] = target === undefined ? {} : this.convert(target);
    }
    const sorted: Obj = {};
    for (const key of Object.keys(this.defs).sort()) sorted[key] = this.defs[key];
    return {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: SCHEMA_ROOT_ID,
      $defs: sorted,
    };
  }

  private refTo(pointer: string): string {
    let key = this.keyOf.get(pointer);
    if (key === undefined) {
      const match = /^\/components\/schemas\/([^/]+)$/.exec(pointer);
      const base =
        unescapeToken(match?.[1] ?? pointer)
          .replace(/[^A-Za-z0-9_.-]+/g, '_')
          .replace(/^_+/, '') || 'schema';
      key = base;
      for (let n = 2; this.usedKeys.has(key); n++) key = `${base}_${n}`;
      this.usedKeys.add(key);
      this.keyOf.set(pointer, key);
      this.queue.push(pointer);
    }
    return `${SCHEMA_ROOT_ID}#/$defs/${key}`;
  }

  private walk(schema: Obj): JsonSchema {
    const pointer = refPointer(schema);
    if (pointer !== undefined) {
      const ref: Obj = { $ref: this.refTo(pointer) };
      if (this.is30) return ref;
      const rest = this.walkKeywords(schema, true);
      return Object.keys(rest).length === 0 ? ref : { ...rest, $ref: ref['$ref'] };
    }
    return this.walkKeywords(schema, false);
  }

  private walkKeywords(schema: Obj, skipRef: boolean): Obj {
    const out: Obj = {};
    for (const [key, value] of Object.entries(schema)) {
      if ((skipRef && key === '$ref') || DROPPED.has(key) || key.startsWith('x-')) continue;
      if (key === '$ref' && typeof value === 'string') {
        out[key] = value; // external or non-pointer refs are left for Ajv to report
      } else if (SCHEMA_MAP_KEYS.includes(key) && isObject(value)) {
        const map: Obj = {};
        for (const [name, sub] of Object.entries(value)) setOwn(map, name, this.convert(sub));
        setOwn(out, key === 'definitions' ? '$defs' : key, map);
      } else if (SCHEMA_KEYS.includes(key) && (isObject(value) || typeof value === 'boolean')) {
        setOwn(out, key, this.convert(value));
      } else if (key === 'items' && Array.isArray(value)) {
        out['prefixItems'] = value.map((v) => this.convert(v)); // draft-4 tuple form
      } else if (SCHEMA_LIST_KEYS.includes(key) && Array.isArray(value)) {
        setOwn(
          out,
          key,
          value.map((v) => this.convert(v)),
        );
      } else if (
        (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') &&
        typeof value === 'boolean'
      ) {
        continue; // folded below, with minimum/maximum
      } else {
        setOwn(out, key, value);
      }
    }
    // 3.0: exclusiveMinimum: true + minimum: n  ->  exclusiveMinimum: n
    for (const [flag, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (schema[flag] === true && typeof schema[bound] === 'number') {
        out[flag] = schema[bound];
        delete out[bound];
      }
    }
    if (schema['example'] !== undefined && out['examples'] === undefined)
      out['examples'] = [schema['example']];
    if (schema['nullable'] === true || schema['x-nullable'] === true) return makeNullable(out);
    return out;
  }
}

function makeNullable(schema: Obj): Obj {
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null))
    schema['enum'] = [...schema['enum'], null];
  const type = schema['type'];
  if (typeof type === 'string')
    return { ...schema, type: type === 'null' ? 'null' : [type, 'null'] };
  if (Array.isArray(type))
    return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  // `allOf: [X]` + nullable is how 3.0 says "X or null"; the wrapper adds nothing on its own.
  const keys = Object.keys(schema);
  const only =
    keys.length === 1 && Array.isArray(schema['allOf']) && schema['allOf'].length === 1
      ? (schema['allOf'][0] as Obj)
      : schema;
  return { anyOf: [only, { type: 'null' }] };
}
