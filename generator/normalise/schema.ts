/**
 * Schema normalisation: OpenAPI 3.0 / 3.1 Schema Objects to JSON Schema 2020-12.
 *
 * - 3.0 `nullable: true` becomes a `null` type (or an `anyOf` with null when there is no `type`),
 *   and `null` joins an `enum`.
 * - 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric 2020-12 form.
 * - In 3.0 the siblings of `$ref` are ignored (as the 3.0 spec says); in 3.1 they are kept.
 * - `example` becomes `examples`; vendor extensions and docs are dropped. `xml` is kept (an
 *   annotation JSON Schema ignores): the mock writes XML bodies by it.
 * - A `discriminator` over `oneOf`/`anyOf` options becomes what it means in OpenAPI: each option
 *   takes only its own values of the property (its mapping keys and its component's name), so
 *   options that differ only by that value no longer all match (`oneOf` would refuse every value).
 * - Every internal `$ref` is hoisted into `$defs` of one root schema (SCHEMA_ROOT_ID) and rewritten
 *   to point there, so recursive schemas work and each schema compiles on its own with that root.
 */
import { escapeToken, unescapeToken } from '../../model/pointer.ts';
import type { Findings } from './findings.ts';
import { defaultFits, repairKeyword, validPattern } from './schema-repair.ts';
import { inheritFlags } from './schema-flags.ts';
import { SCHEMA_ROOT_ID, type JsonSchema } from '../../model/types.ts';
import { isObject, setOwn, type Obj } from '../../model/object.ts';
import { getAt, refPointer } from '../../model/refs.ts';
import { excerpt } from '../../model/text.ts';
import {
  SCHEMA_KEYWORDS as SCHEMA_KEYS,
  SCHEMA_LIST_KEYWORDS as SCHEMA_LIST_KEYS,
  SCHEMA_MAP_KEYWORDS as SCHEMA_MAP_KEYS,
} from '../../model/keywords.ts';

const DROPPED = new Set(['externalDocs', 'discriminator', 'example', 'nullable', 'x-nullable']);

export class SchemaConverter {
  private readonly defs: Obj = {};
  private readonly keyOf = new Map<string, string>();
  private readonly usedKeys = new Set<string>();
  private readonly queue: string[] = [];

  /** The `$ref` a 2019-09 `$recursiveRef` stands for: the hoisted schema being converted. */
  private recursion: string | undefined;

  constructor(
    private readonly document: Obj,
    private readonly is30: boolean,
    private readonly findings?: Findings,
  ) {}

  /** Converts one schema found at `at` (the pointer findings name). */
  convert(schema: unknown, at = ''): JsonSchema {
    if (typeof schema === 'boolean') return schema;
    if (!isObject(schema)) {
      if (schema !== undefined && schema !== null)
        this.findings?.add(
          'schema-not-object',
          at,
          'a schema must be an object or a boolean: read as {}',
        );
      return {};
    }
    return this.walk(schema, at);
  }

  /** The root schema holding every hoisted `$ref` target. Call after all convert() calls. */
  root(): Obj {
    while (this.queue.length > 0) {
      const pointer = this.queue.shift() as string;
      const key = this.keyOf.get(pointer) as string;
      const target = getAt(this.document, pointer);
      if (target === undefined)
        this.findings?.add(
          'schema-dangling-ref',
          pointer,
          `$ref #${pointer} names nothing: read as {}`,
          undefined,
        );
      this.recursion = `${SCHEMA_ROOT_ID}#/$defs/${key}`;
      this.defs[key] = target === undefined ? {} : this.convert(target, pointer);
      this.recursion = undefined;
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

  private walk(schema: Obj, at: string): JsonSchema {
    const pointer = refPointer(schema);
    if (pointer !== undefined) {
      const ref: Obj = { $ref: this.refTo(pointer) };
      if (this.is30) return ref;
      const rest = this.walkKeywords(schema, true, at);
      return Object.keys(rest).length === 0 ? ref : { ...rest, $ref: ref['$ref'] };
    }
    return this.walkKeywords(schema, false, at);
  }

  private walkKeywords(schema: Obj, skipRef: boolean, at: string): Obj {
    const out: Obj = {};
    for (const [key, raw] of Object.entries(schema)) {
      if ((skipRef && key === '$ref') || DROPPED.has(key) || key.startsWith('x-')) continue;
      const here = `${at}/${escapeToken(key)}`;
      const repair = this.findings
        ? repairKeyword(key, raw, here, this.findings, this.recursion)
        : ({ keep: true, value: raw } as const);
      if (repair.keep) this.convertKeyword(out, key, repair.value, here);
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
    if ('default' in out && this.findings && !defaultFits(schema, out['default'])) {
      this.findings.add(
        'schema-bad-default',
        `${at}/default`,
        `default ${excerpt(out['default'], 40)} does not fit its own schema: ignored (a server would fill it in where the value is missing)`,
      );
      delete out['default'];
    }
    if (schema['example'] !== undefined && out['examples'] === undefined)
      out['examples'] = [schema['example']];
    discriminate(out, schema, this.document);
    inheritFlags(out, schema, this.document);
    if (schema['nullable'] === true || schema['x-nullable'] === true) return makeNullable(out);
    return out;
  }

  /** Writes one (repaired) keyword into `out`, converting the schemas it holds. */
  private convertKeyword(out: Obj, key: string, value: unknown, here: string): void {
    if (key === '$recursiveRef') {
      out['$ref'] = value;
    } else if (key === '$ref') {
      // A reference the bundle could not pull in (external, or not a pointer) cannot compile.
      this.findings?.add(
        'schema-unresolved-ref',
        here,
        `$ref ${JSON.stringify(value)} is not bundled: read as {}`,
      );
    } else if (SCHEMA_MAP_KEYS.includes(key) && isObject(value)) {
      setOwn(out, key === 'definitions' ? '$defs' : key, this.convertMap(key, value, here));
    } else if (SCHEMA_KEYS.includes(key) && (isObject(value) || typeof value === 'boolean')) {
      setOwn(out, key, this.convert(value, here));
    } else if (key === 'items' && Array.isArray(value)) {
      out['prefixItems'] = value.map((v, i) => this.convert(v, `${here}/${i}`)); // draft-4 tuple form
    } else if (SCHEMA_LIST_KEYS.includes(key) && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((v, i) => this.convert(v, `${here}/${i}`)),
      );
    } else if (
      (SCHEMA_MAP_KEYS.includes(key) ||
        SCHEMA_KEYS.includes(key) ||
        SCHEMA_LIST_KEYS.includes(key)) &&
      this.findings
    ) {
      this.findings.add(
        'schema-bad-keyword',
        here,
        `${key} has a value of the wrong kind: ignored`,
      );
    } else if (!(
      (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') &&
      typeof value === 'boolean'
    )) {
      setOwn(out, key, value); // (boolean exclusive bounds are folded with minimum/maximum)
    }
  }

  /** A map of name -> schema (`properties`, `$defs`, ...); bad pattern keys are dropped. */
  private convertMap(key: string, value: Obj, here: string): Obj {
    const map: Obj = {};
    for (const [name, sub] of Object.entries(value)) {
      if (key === 'patternProperties' && !validPattern(name)) {
        this.findings?.add(
          'schema-bad-pattern',
          `${here}/${escapeToken(name)}`,
          'patternProperties key is not a JavaScript (u) regular expression: ignored',
        );
        continue;
      }
      setOwn(map, name, this.convert(sub, `${here}/${escapeToken(name)}`));
    }
    return map;
  }
}

/**
 * OpenAPI's discriminator as JSON Schema: each `oneOf`/`anyOf` option (a `$ref` to a component)
 * is wrapped so that it requires the discriminating property with one of the values that name
 * it (mapping keys whose target it is, and its component's name). The discriminator is the
 * schema's own, or the one every option inherits through `allOf`. Left alone when an option has
 * no such value (an inline option without a mapping entry).
 */
function discriminate(out: Obj, schema: Obj, document: Obj): void {
  const keyword = Array.isArray(out['oneOf'])
    ? 'oneOf'
    : Array.isArray(out['anyOf'])
      ? 'anyOf'
      : undefined;
  const raw = keyword ? schema[keyword] : undefined;
  if (!keyword || !Array.isArray(raw)) return;
  const disc = schema['discriminator'] ?? inheritedDiscriminator(raw, document);
  if (!isObject(disc) || typeof disc['propertyName'] !== 'string') return;
  const mapping = isObject(disc['mapping']) ? disc['mapping'] : {};
  const targetOf = (v: unknown) =>
    typeof v !== 'string' ? undefined : v.startsWith('#') ? v.slice(1) : `/components/schemas/${v}`;
  const values = raw.map((option) => {
    const pointer = refPointer(option);
    if (pointer === undefined) return [];
    const named = /^\/components\/schemas\/([^/]+)$/.exec(pointer)?.[1];
    const mapped = Object.keys(mapping).filter((k) => targetOf(mapping[k]) === pointer);
    return [...new Set([...mapped, ...(named ? [unescapeToken(named)] : [])])];
  });
  if (values.some((v) => v.length === 0)) return;
  const name = disc['propertyName'];
  out[keyword] = (out[keyword] as JsonSchema[]).map((option, i) => ({
    allOf: [option],
    properties: { [name]: { enum: values[i] } },
    required: [name],
  }));
}

/**
 * The discriminator every option inherits (each a component whose `allOf` takes a base with one,
 * the same property): `oneOf: [Cat, Dog]` where `Cat: allOf: [Pet, ...]` and Pet discriminates.
 */
function inheritedDiscriminator(options: unknown[], document: Obj): Obj | undefined {
  const target = (v: unknown) => {
    const pointer = refPointer(v);
    return pointer === undefined ? undefined : getAt(document, pointer);
  };
  const found = options.map((option) => {
    const component = target(option);
    const parts =
      isObject(component) && Array.isArray(component['allOf']) ? component['allOf'] : [];
    for (const part of parts) {
      const base = target(part);
      if (isObject(base) && isObject(base['discriminator'])) return base['discriminator'];
    }
    return undefined;
  });
  const first = found[0];
  return first && found.every((d) => d?.['propertyName'] === first['propertyName'])
    ? first
    : undefined;
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
