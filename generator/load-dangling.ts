/**
 * A `$ref` the bundler left pointing nowhere. json-schema-ref-parser's bundle leaves some local
 * `$ref`s of a file other than the root as they were written (OpenSearch's schema files:
 * `additionalProperties: { title: terms, $ref: '#/components/schemas/TermsQueryField' }`), which
 * in the one document then name nothing, and types.ts does not compile. Each such `$ref` is
 * pointed at what it names in its own file (found through the source files), for another round
 * of the bundler to bring in.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken } from '../model/pointer.ts';
import { getAt, plainPointer, tokensOf } from './load-hoist.ts';
import type { SpecFiles } from './load-refs.ts';

/**
 * Points each local `$ref` that names nothing at its source (`<file>#<pointer>`); how to undo it
 * (undefined when there was none).
 */
export function repointDanglingRefs(document: Obj, files: SpecFiles): (() => void) | undefined {
  const undo: [Obj, string][] = [];
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#')) {
      const target = plainPointer(ref);
      if (target !== undefined && getAt(document, tokensOf(target)) === undefined) {
        const source = files.sourceKey(pointer, ref);
        if (source !== undefined && !source.startsWith(`${files.root.abs}#`)) {
          undo.push([node, ref]);
          node['$ref'] = source;
        }
      }
    }
    for (const [k, v] of Object.entries(node))
      if (k !== 'example' && k !== 'examples' && k !== 'enum' && k !== 'const')
        visit(v, `${pointer}/${escapeToken(k)}`);
  };
  visit(document, '');
  if (undo.length === 0) return undefined;
  return () => {
    for (const [node, ref] of undo) node['$ref'] = ref;
  };
}
