/**
 * A component schema that is one of its own allOf / anyOf / oneOf branches, through `$ref`s only
 * (`Loop: { anyOf: [{ $ref: Loop }, { type: string }] }`): no object or list stands between the
 * schema and itself, so TypeScript has no finite type for it and types.ts types it `unknown`
 * (generator/emit/types-recursive.mjs). Said, with the schema's pointer; the model reads it as
 * written (a value is checked against its other branches).
 */
import { isObject, type Obj } from '../../model/object.ts';
import { escapeToken, splitPointer } from '../../model/pointer.ts';
import type { Findings } from './findings.ts';

const COMPOSED = ['allOf', 'anyOf', 'oneOf'] as const;
const SCHEMAS = '#/components/schemas/';

/** The component schemas `schema` names with no object or list between (its branches, its `$ref`). */
function bareRefs(schema: unknown, out: Set<string> = new Set()): Set<string> {
  if (!isObject(schema)) return out;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith(SCHEMAS)) {
    const tokens = splitPointer(ref);
    if (tokens.length === 3 && tokens[2] !== undefined) out.add(tokens[2]);
  }
  for (const key of COMPOSED) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) bareRefs(b, out);
  }
  return out;
}

export function reportSelfComposedSchemas(doc: Obj, findings: Findings): void {
  const components = doc['components'];
  const schemas = isObject(components) ? components['schemas'] : undefined;
  if (!isObject(schemas)) return;
  const edges = new Map<string, Set<string>>();
  for (const [name, schema] of Object.entries(schemas)) edges.set(name, bareRefs(schema));
  for (const name of edges.keys()) {
    // Reaches itself: a walk over the bare edges (a few schemas each, at most every schema once).
    const seen = new Set<string>();
    const todo = [...(edges.get(name) ?? [])];
    let loops = false;
    while (todo.length > 0 && !loops) {
      const next = todo.pop() as string;
      if (next === name) loops = true;
      else if (!seen.has(next)) {
        seen.add(next);
        todo.push(...(edges.get(next) ?? []));
      }
    }
    if (loops)
      findings.add(
        'schema-self-composed',
        `/components/schemas/${escapeToken(name)}`,
        `schema ${name} is one of its own allOf/anyOf/oneOf branches with no object or list between: types.ts types it unknown`,
        undefined,
      );
  }
}
