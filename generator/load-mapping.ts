/**
 * Discriminator mappings of a split description. A mapping value is a reference written as a
 * plain string (`cat: './cat.yaml'`), which the bundler leaves as it is while it moves the schema
 * it names into the one document; a value that still points into another file names nothing
 * there. Each such value is matched, through the source files, with the `oneOf`/`anyOf` option
 * it names, and takes that option's `$ref` in the bundle.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken } from '../model/pointer.ts';
import type { SpecFiles } from './load-refs.ts';

/** Rewrites, in place, the mapping values of the bundled document that point into other files. */
export function rewriteExternalMappings(document: Obj, files: SpecFiles): void {
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${pointer}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    const disc = node['discriminator'];
    if (isObject(disc) && isObject(disc['mapping'])) rewrite(node, disc['mapping'], pointer, files);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
      visit(value, `${pointer}/${escapeToken(key)}`);
    }
  };
  visit(document, '');
}

function rewrite(schema: Obj, mapping: Obj, pointer: string, files: SpecFiles): void {
  const external = Object.keys(mapping).filter((k) => {
    const v = mapping[k];
    return typeof v === 'string' && !v.startsWith('#') && /[/.]/.test(v);
  });
  if (external.length === 0) return;
  // Each option's source (the file and pointer it was written at, through its `$ref`).
  const options = new Map<string, string>();
  for (const keyword of ['oneOf', 'anyOf']) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((option, i) => {
      if (!isObject(option)) return;
      const at = `${pointer}/${keyword}/${i}`;
      const source = files.sourceKey(at);
      // Inlined here by the bundler (its first use): the mapping points here, hoisting moves it.
      const ref = typeof option['$ref'] === 'string' ? option['$ref'] : `#${at}`;
      if (source !== undefined) options.set(source, ref);
    });
  }
  for (const key of external) {
    const source = files.sourceKey(pointer, mapping[key] as string);
    const ref = source === undefined ? undefined : options.get(source);
    if (ref !== undefined) mapping[key] = ref;
  }
}
