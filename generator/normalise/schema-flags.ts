/**
 * readOnly / writeOnly across `allOf`: OpenAPI waives `required` for a readOnly property in a
 * request (and a writeOnly one in a response). A validator sees that only where the property is
 * declared beside the `required` that names it (model/validate.ts directionalErrors), but
 * descriptions often split them: `allOf: [{ $ref: Resource }, { required: [id, name] }]` with
 * `id` readOnly in Resource. The flag is copied, as an annotation-only property schema
 * (`{ readOnly: true }`: it constrains nothing), next to each `required` that names it without
 * declaring it: the schema itself and its inline `allOf` branches.
 */
import { isObject, setOwn, type Obj } from '../../model/object.ts';
import { getAt, refPointer } from '../../model/refs.ts';

type Flags = { readOnly?: true; writeOnly?: true };

/** Adds the flags in place to `out`, the converted form of `schema`. */
export function inheritFlags(out: Obj, schema: Obj, document: Obj): void {
  const branches = schema['allOf'];
  if (!Array.isArray(branches) || !Array.isArray(out['allOf'])) return;
  const flags = new Map<string, Flags>();
  collect(schema, document, flags, 0);
  if (flags.size === 0) return;
  annotate(out, flags);
  const converted = out['allOf'] as unknown[];
  branches.forEach((raw, i) => {
    const branch = converted[i];
    if (isObject(raw) && refPointer(raw) === undefined && isObject(branch)) annotate(branch, flags);
  });
}

/** The flags of every property declared by the schema or its `allOf` branches (through `$ref`s). */
function collect(node: unknown, document: Obj, flags: Map<string, Flags>, depth: number): void {
  const schema = resolve(node, document);
  if (!isObject(schema) || depth > 8) return;
  const props = schema['properties'];
  if (isObject(props)) {
    for (const [name, p] of Object.entries(props)) {
      const prop = resolve(p, document);
      if (!isObject(prop)) continue;
      const f: Flags = {
        ...(prop['readOnly'] === true ? { readOnly: true as const } : {}),
        ...(prop['writeOnly'] === true ? { writeOnly: true as const } : {}),
      };
      if (f.readOnly || f.writeOnly) flags.set(name, { ...flags.get(name), ...f });
    }
  }
  if (Array.isArray(schema['allOf']))
    for (const b of schema['allOf']) collect(b, document, flags, depth + 1);
}

function resolve(node: unknown, document: Obj): unknown {
  let s = node;
  for (let hops = 0; hops < 8 && isObject(s); hops++) {
    const pointer = refPointer(s);
    if (pointer === undefined) return s;
    s = getAt(document, pointer);
  }
  return s;
}

function annotate(schema: Obj, flags: Map<string, Flags>): void {
  const required = schema['required'];
  if (!Array.isArray(required)) return;
  const props = isObject(schema['properties']) ? schema['properties'] : undefined;
  for (const name of required) {
    const f = typeof name === 'string' ? flags.get(name) : undefined;
    if (!f || (props && Object.hasOwn(props, name))) continue;
    const target = isObject(schema['properties'])
      ? schema['properties']
      : (schema['properties'] = {});
    setOwn(target, name, { ...f });
  }
}
