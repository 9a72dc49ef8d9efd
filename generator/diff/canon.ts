/**
 * The schemas of one side of a comparison: `$ref` resolution into the model's schema root, a
 * canonical form in which different spellings of the same schema are equal (3.0 `nullable` vs
 * 3.1 type arrays, `const` vs a one-value `enum`, `oneOf` vs `anyOf` with `null`, annotations,
 * key and enum order), and where each named schema is written in the description.
 */
import { SCHEMA_ROOT_ID } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';
import { isObject as isObj, type Obj } from '../../model/object.ts';
import { escapeToken } from '../../model/pointer.ts';
import {
  SCHEMA_KEYWORDS,
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
} from '../../model/keywords.ts';

/** Keywords that document a schema without constraining its values. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  'example',
  'default',
  'deprecated',
  '$comment',
  '$schema',
  '$id',
  '$anchor',
  'externalDocs',
  'xml',
  'discriminator',
]);

/** Keywords whose boolean value is a schema (`true` = anything, `false` = nothing). */
const SCHEMA_VALUED = new Set(SCHEMA_KEYWORDS);

const DEF_PREFIX = `${SCHEMA_ROOT_ID}#/$defs/`;

/** The `$defs` key a reference of the model points at, if it is one of ours. */
export function defKey(schema: unknown): string | undefined {
  if (!isObj(schema) || typeof schema['$ref'] !== 'string') return undefined;
  const ref = schema['$ref'];
  if (!ref.startsWith(DEF_PREFIX)) return undefined;
  const key = ref.slice(DEF_PREFIX.length);
  return key.includes('/') ? undefined : decodeURIComponent(key);
}

const isNullBranch = (s: unknown) =>
  isObj(s) &&
  s['type'] === 'null' &&
  Object.keys(s).every((k) => k === 'type' || ANNOTATIONS.has(k));

/** The canonical form of a schema (not following references). */
export function canon(schema: unknown): unknown {
  if (schema === true) return {};
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const key of Object.keys(schema).sort()) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    const value = schema[key];
    if (SCHEMA_MAP_KEYWORDS.includes(key)) {
      const map: Obj = {};
      for (const name of Object.keys(isObj(value) ? value : {}).sort())
        Object.defineProperty(map, name, {
          value: canon((value as Obj)[name]),
          enumerable: true,
        });
      out[key] = map;
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = [...new Set(value)].sort();
    } else if (key === 'type') {
      out[key] = (Array.isArray(value) ? [...new Set(value)] : [value]).sort();
    } else if (key === 'const') {
      out['enum'] = [value];
    } else if (key === 'enum' && Array.isArray(value)) {
      out[key] = sortValues(value);
    } else if (Array.isArray(value) && SCHEMA_LIST_KEYWORDS.includes(key)) {
      out[key] = value.map(canon);
    } else if (isObj(value) || (typeof value === 'boolean' && SCHEMA_VALUED.has(key))) {
      out[key] = canon(value);
    } else {
      out[key] = value;
    }
  }
  // `oneOf: [X, null]` and `anyOf: [X, null]` say the same thing.
  if (Array.isArray(out['oneOf']) && out['oneOf'].length === 2 && out['oneOf'].some(isNullBranch)) {
    out['anyOf'] = out['oneOf'];
    delete out['oneOf'];
  }
  // A nullable schema's `null` is carried by its type; an enum need not repeat it.
  if (Array.isArray(out['type']) && out['type'].includes('null') && Array.isArray(out['enum']))
    out['enum'] = (out['enum'] as unknown[]).filter((v) => v !== null);
  // `allOf: [X]` alone is X.
  const keys = Object.keys(out);
  if (keys.length === 1 && Array.isArray(out['allOf']) && out['allOf'].length === 1)
    return out['allOf'][0];
  return out;
}

function sortValues(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const v of values) seen.set(JSON.stringify(v), v);
  return [...seen.keys()].sort().map((k) => seen.get(k));
}

/** Stable text of a canonical schema (object keys are already sorted by canon). */
export const canonText = (schema: unknown): string => JSON.stringify(canon(schema)) ?? 'undefined';

/** Every `$defs` key referenced inside a schema (not following them). */
export function refsIn(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const v of schema) refsIn(v, into);
  else if (isObj(schema)) {
    const key = defKey(schema);
    if (key !== undefined) into.add(key);
    for (const [k, v] of Object.entries(schema)) if (k !== 'enum' && k !== 'const') refsIn(v, into);
  }
  return into;
}

const sanitise = (name: string) =>
  name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+/, '') || 'schema';

/** The schemas of one description. */
export class SchemaSpace {
  readonly defs: Obj;
  private readonly pointers = new Map<string, string>();

  constructor(model: ServiceModel, document: Obj) {
    const root = model.schemaRoot;
    this.defs = isObj(root['$defs']) ? root['$defs'] : {};
    const components = isObj(document['components']) ? document['components'] : {};
    const schemas = isObj(components['schemas']) ? components['schemas'] : {};
    // The normaliser names a component's `$defs` entry after it (sanitised).
    for (const name of Object.keys(schemas)) {
      const key = sanitise(name);
      if (!this.pointers.has(key) && Object.hasOwn(this.defs, key))
        this.pointers.set(key, `/components/schemas/${escapeToken(name)}`);
    }
  }

  def(key: string): unknown {
    return Object.hasOwn(this.defs, key) ? this.defs[key] : undefined;
  }

  /** Where the named schema is written in the description, when known. */
  pointerOf(key: string): string | undefined {
    return this.pointers.get(key);
  }
}

/**
 * `$defs` keys whose schema differs between the sides, directly or through a schema they
 * reference: comparing two references to a clean key can stop at once.
 */
export function dirtyKeys(base: SchemaSpace, head: SchemaSpace): Set<string> {
  const keys = new Set([...Object.keys(base.defs), ...Object.keys(head.defs)]);
  const dirty = new Set<string>();
  const uses = new Map<string, Set<string>>();
  for (const key of keys) {
    const b = base.def(key);
    const h = head.def(key);
    if (b === undefined || h === undefined || canonText(b) !== canonText(h)) dirty.add(key);
    for (const ref of [...refsIn(b), ...refsIn(h)]) {
      const users = uses.get(ref) ?? new Set<string>();
      users.add(key);
      uses.set(ref, users);
    }
  }
  const queue = [...dirty];
  while (queue.length > 0) {
    for (const user of uses.get(queue.pop() as string) ?? []) {
      if (dirty.has(user)) continue;
      dirty.add(user);
      queue.push(user);
    }
  }
  return dirty;
}
