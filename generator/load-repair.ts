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
  /**
   * Where the author wrote it, when the loader knows it better than the bundle's pointer does
   * (a file a `$ref` led to: `pointer` is then in that file).
   */
  file?: string;
  line?: number;
  column?: number;
}

/** Whether the text may hold `properties: { $ref: ... }` (a cheap test before a walk). */
export function mayHavePropertiesRef(text: string): boolean {
  return /properties["']?\s*:\s*\{?\s*["']?\$ref["']?\s*:/.test(text);
}

/**
 * Keys whose value is a map of names (of properties, schemas, responses, media types, ...): a
 * name in such a map may be `properties` itself (Azure's resources have a property called
 * `properties` on almost every schema), and its value is an object, not a misplaced `$ref`.
 */
const MAPS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
  'schemas',
  'responses',
  'parameters',
  'requestBodies',
  'headers',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'paths',
  'webhooks',
  'content',
  'encoding',
  'mapping',
  'variables',
]);

/** Repairs the document in place; what was repaired, with where. */
export function repairPropertiesRefs(document: Obj): LoadRepair[] {
  const repairs: LoadRepair[] = [];
  // `map`: node is a map of names, whose entries are visited but which is no schema itself.
  const visit = (node: unknown, pointer: string, map: boolean) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${pointer}/${i}`, false));
      return;
    }
    if (!isObject(node)) return;
    const props = node['properties'];
    if (!map && isObject(props) && typeof props['$ref'] === 'string') {
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
      if (!map && (key === 'example' || key === 'examples' || key === 'enum' || key === 'const'))
        continue;
      visit(value, `${pointer}/${escapeToken(key)}`, !map && MAPS.has(key));
    }
  };
  visit(document, '', false);
  return repairs;
}
