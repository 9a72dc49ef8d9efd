/**
 * Envelope detection (docs/service.md §2): capitalised `DataStatus`/`Data` or lower camel `dataStatus`/`data`.
 * Declared by `x-dataapi-envelope`, otherwise inferred from the success schema's properties.
 */
import type { Envelope, EnvelopeSpelling } from '../../model/types.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { resolve } from '../../model/refs.ts';
import type { Problems } from './problems.ts';

const KEYS: Record<EnvelopeSpelling, [status: string, payload: string]> = {
  capitalised: ['DataStatus', 'Data'],
  lowerCamel: ['dataStatus', 'data'],
};

/** Properties of an object schema, following `$ref` and `allOf`. */
export function collectProperties(
  doc: Obj,
  schema: unknown,
  depth = 0,
): { properties: Obj; required: string[] } {
  const s = resolve(doc, schema);
  const out = { properties: {} as Obj, required: [] as string[] };
  if (!isObject(s) || depth > 20) return out;
  if (isObject(s['properties'])) out.properties = { ...out.properties, ...s['properties'] };
  if (Array.isArray(s['required'])) out.required.push(...(s['required'] as string[]));
  if (Array.isArray(s['allOf'])) {
    for (const part of s['allOf']) {
      const sub = collectProperties(doc, part, depth + 1);
      out.properties = { ...out.properties, ...sub.properties };
      out.required.push(...sub.required);
    }
  }
  return out;
}

export function detectEnvelope(
  doc: Obj,
  op: Obj,
  pointer: string,
  successSchema: unknown,
  problems: Problems,
): { envelope?: Envelope; payloadSchema?: unknown } {
  const declared = op['x-dataapi-envelope'];
  let spelling: EnvelopeSpelling | undefined;
  let source: Envelope['source'] = 'extension';
  if (declared !== undefined) {
    if (declared === 'none') return {};
    if (declared !== 'capitalised' && declared !== 'lowerCamel') {
      problems.add(
        'spec-extension',
        `${pointer}/x-dataapi-envelope`,
        'must be one of capitalised, lowerCamel, none',
      );
      return {};
    }
    spelling = declared;
  }
  const { properties, required } = collectProperties(doc, successSchema);
  if (spelling === undefined) {
    source = 'inferred';
    const has = (s: EnvelopeSpelling) => KEYS[s].every((k) => k in properties);
    const candidates = (['capitalised', 'lowerCamel'] as const).filter(has);
    // Both present (the service's lower camel samples also carry DataStatus): the required one wins.
    spelling = candidates.find((s) => required.includes(KEYS[s][0])) ?? candidates[0];
    if (spelling === undefined) return {};
  }
  const [statusKey, payloadKey] = KEYS[spelling];
  const lower = spelling === 'lowerCamel';
  const field = (name: string) => (lower ? name.charAt(0).toLowerCase() + name.slice(1) : name);
  const statusFields = Object.keys(collectProperties(doc, properties[statusKey]).properties);
  const other = spelling === 'capitalised' ? KEYS.lowerCamel : KEYS.capitalised;
  return {
    envelope: {
      spelling,
      statusKey,
      payloadKey,
      codeField: field('StatusCode'),
      descriptionField: field('StatusDescription'),
      dateTimeField: field('ResponseDateTime'),
      totalCountField: field('DataTotalCount'),
      statusFields:
        statusFields.length > 0
          ? statusFields
          : [
              field('StatusCode'),
              field('StatusDescription'),
              field('ResponseDateTime'),
              field('DataTotalCount'),
            ],
      toleratedKeys: other.filter((k) => k in properties),
      source,
    },
    payloadSchema: properties[payloadKey] ?? {},
  };
}
