/**
 * Repairs the loader makes before validation, each reported (LoadedSpec.repairs, then a finding of
 * the model): a mistake real descriptions make that would otherwise refuse the whole description.
 *
 * `properties: { $ref: '#/components/schemas/Base' }`: a reference where a map of property names
 * belongs. The author means the properties of Base; it is read as `allOf: [{ $ref }]` beside the
 * schema's other keywords.
 */
import { isObject, type Obj } from '../model/object.ts';
import type { ModelFindingCode } from '../model/diagnostics.ts';
import { escapeToken } from '../model/pointer.ts';

export interface LoadRepair {
  code: ModelFindingCode;
  pointer: string;
  message: string;
}

/** Whether the text may hold `properties: { $ref: ... }` (a cheap test before a walk). */
export function mayHavePropertiesRef(text: string): boolean {
  return /properties["']?\s*:\s*\{?\s*["']?\$ref["']?\s*:/.test(text);
}

/** Repairs the document in place; what was repaired, with where. */
export function repairPropertiesRefs(document: Obj): LoadRepair[] {
  const repairs: LoadRepair[] = [];
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${pointer}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    const props = node['properties'];
    if (isObject(props) && typeof props['$ref'] === 'string') {
      const ref = props['$ref'];
      delete props['$ref'];
      const allOf = Array.isArray(node['allOf']) ? node['allOf'] : [];
      node['allOf'] = [...allOf, { $ref: ref }];
      if (Object.keys(props).length === 0) delete node['properties'];
      repairs.push({
        code: 'schema-properties-ref',
        pointer: `${pointer}/properties/$ref`,
        message: `properties holds a $ref (${JSON.stringify(ref)}) where a map of property names belongs: read as allOf: [{ $ref }]`,
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
      visit(value, `${pointer}/${escapeToken(key)}`);
    }
  };
  visit(document, '');
  return repairs;
}
