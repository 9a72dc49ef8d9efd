/**
 * Reading the model's JSON Schemas for request building: following `$ref`s into schemaRoot,
 * flattening `allOf`, and deriving a sample value where the spec gives no example.
 */
import type { JsonSchema, ServiceModel } from 'dataapi/model';
import { resolveRef } from 'dataapi/runtime/shared';

export type Obj = { [key: string]: unknown };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows `$ref` (into schemaRoot) and merges `allOf` members shallowly; depth-limited. */
export function resolveSchema(model: ServiceModel, schema: JsonSchema | undefined, depth = 0): Obj {
  if (!isObj(schema) || depth > 20) return {};
  let out: Obj = { ...schema };
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    delete out['$ref'];
    out = { ...resolveSchema(model, resolveRef(model, ref), depth + 1), ...out };
  }
  const allOf = schema['allOf'];
  if (Array.isArray(allOf)) {
    delete out['allOf'];
    for (const part of allOf) {
      const p = resolveSchema(model, part as JsonSchema, depth + 1);
      out = {
        ...p,
        ...out,
        properties: { ...(p['properties'] as Obj), ...(out['properties'] as Obj) },
        required: [
          ...((p['required'] as string[] | undefined) ?? []),
          ...((out['required'] as string[] | undefined) ?? []),
        ],
      };
    }
  }
  return out;
}

/** The types a schema allows (`type` as string or array); empty when unconstrained. */
export function typesOf(schema: Obj): string[] {
  const t = schema['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

/** The properties of an object schema (resolved), with its required names. */
export function propertiesOf(
  model: ServiceModel,
  schema: JsonSchema | undefined,
): { properties: Record<string, Obj>; required: string[] } {
  const s = resolveSchema(model, schema);
  const properties: Record<string, Obj> = {};
  for (const [name, sub] of Object.entries((s['properties'] as Obj | undefined) ?? {}))
    properties[name] = resolveSchema(model, sub as JsonSchema);
  const required = Array.isArray(s['required']) ? (s['required'] as string[]) : [];
  return { properties, required: [...new Set(required)] };
}

/** A value the schema accepts: its example, default, const, first enum value, or one built from type. */
export function sampleOf(model: ServiceModel, schema: JsonSchema | undefined, depth = 0): unknown {
  const s = resolveSchema(model, schema);
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if (s['default'] !== undefined) return s['default'];
  if (s['const'] !== undefined) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  for (const key of ['oneOf', 'anyOf']) {
    const alts = s[key];
    if (Array.isArray(alts) && alts.length > 0)
      return sampleOf(model, alts[0] as JsonSchema, depth + 1);
  }
  const type = typesOf(s).find((t) => t !== 'null') ?? (s['properties'] ? 'object' : 'string');
  switch (type) {
    case 'integer':
    case 'number': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] : undefined;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] : undefined;
      return min ?? (max !== undefined ? Math.min(max, 1) : 1);
    }
    case 'boolean':
      return true;
    case 'array': {
      if (depth > 4) return [];
      const n = typeof s['minItems'] === 'number' ? Math.max(1, s['minItems']) : 1;
      return Array.from({ length: n }, () => sampleOf(model, s['items'] as JsonSchema, depth + 1));
    }
    case 'object': {
      if (depth > 4) return {};
      const { properties, required } = propertiesOf(model, s);
      const out: Obj = {};
      for (const name of required)
        if (properties[name]) out[name] = sampleOf(model, properties[name], depth + 1);
      return out;
    }
    default: {
      const min = typeof s['minLength'] === 'number' ? s['minLength'] : 1;
      const format = s['format'];
      if (format === 'date-time') return '2025-01-01T00:00:00Z';
      if (format === 'date') return '2025-01-01';
      if (format === 'uri' || format === 'url') return 'https://example.com/';
      if (format === 'email') return 'qa@example.com';
      if (format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      return 'x'.repeat(Math.max(1, min));
    }
  }
}
