/**
 * A `$ref` the bundler left pointing nowhere. json-schema-ref-parser's bundle leaves some local
 * `$ref`s of a file other than the root as they were written (OpenSearch's schema files:
 * `additionalProperties: { title: terms, $ref: '#/components/schemas/TermsQueryField' }`), which
 * in the one document then name nothing, and types.ts does not compile. Each such `$ref` is
 * pointed at what it names in its own file (found through the source files), for another round
 * of the bundler to bring in.
 *
 * A `$ref` into itself (OpenSearch flow-framework's `query`, snapshot's `index_settings`): a
 * `$ref` with keys beside it (a description) to a recursive schema of another file. The bundler
 * inlines such a `$ref` merged with its keys, so it takes a use inside that schema as the home of
 * its value, and then points the first one there, into itself: the value is nowhere, and so is
 * every place the bundler pointed other uses at inside it. Each `$ref` that resolves through such
 * a one is pointed at its holder's source (where its author's `$ref` leads) without the keys
 * beside it (the bundler then inlines the value in the first place, as the home of the others),
 * and the keys are put back afterwards.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken } from '../model/pointer.ts';
import { getAt, plainPointer, tokensOf } from './load-hoist.ts';
import { passesThroughRef, resolveThrough } from './load-ref-chains.ts';
import type { SpecFiles } from './load-refs.ts';

/**
 * Points each local `$ref` that names nothing at its source (`<file>#<pointer>`); how to undo it
 * (undefined when there was none).
 */
export function repointDanglingRefs(
  document: Obj,
  files: SpecFiles,
  /** Filled with the keys taken from beside a `$ref` into itself, by its pointer. */
  besides: Map<string, Obj> = new Map(),
): (() => void) | undefined {
  const undo: [Obj, string, Obj?][] = [];
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#')) {
      const target = plainPointer(ref);
      const tokens = target === undefined ? [] : tokensOf(target);
      const nowhere = target !== undefined && getAt(document, tokens) === undefined;
      const through = nowhere && passesThroughRef(document, tokens);
      if (through && resolveThrough(document, tokens) === undefined) {
        // Through a `$ref` into itself: the holder as its author wrote it (see above).
        const source = files.sourceKey(pointer);
        if (source !== undefined && !source.startsWith(`${files.root.abs}#`)) {
          const kept = Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref'));
          undo.push([node, ref, kept]);
          for (const k of Object.keys(kept)) delete node[k];
          node['$ref'] = source;
          if (Object.keys(kept).length > 0) besides.set(pointer, kept);
        }
      } else if (nowhere && !through) {
        // (One through a `$ref` that resolves is rewritten after the rounds: load-ref-chains.ts.)
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
    for (const [node, ref, kept] of undo) Object.assign(node, { $ref: ref }, kept);
  };
}

/** Puts the keys taken from beside a `$ref` into itself back on the value now in its place. */
export function restoreBesides(document: Obj, besides: Map<string, Obj>): void {
  for (const [pointer, kept] of besides) {
    const value = getAt(document, tokensOf(pointer));
    if (!isObject(value)) continue;
    for (const [k, v] of Object.entries(kept)) if (!Object.hasOwn(value, k)) value[k] = v;
  }
}
