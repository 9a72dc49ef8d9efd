/**
 * Path items as the normaliser reads them: `paths` and 3.1 `webhooks`, a path item's `$ref`
 * followed, and each path key split into what can be routed and what cannot. A key may carry a
 * `#fragment` (Box: `/files/{file_id}#add_shared_link`, a second operation on the same method and
 * path) or a `?query` (`/responses?beta=true`): the routable path drops both; the fragment only
 * tells the operation apart (its id and pointer keep the key), the query pairs become fixed query
 * parameters the operation always sends.
 */
import { isObject, type Obj } from '../../model/object.ts';
import { joinPointer } from '../../model/pointer.ts';
import { getAt, refPointer } from '../../model/refs.ts';
import type { Findings } from './findings.ts';

export interface PathEntry {
  /** The key as written. */
  key: string;
  /** The routable path (`/files/{file_id}`); a webhook's name for webhooks. */
  path: string;
  /** Query pairs fixed by the key, in order. */
  fixed: [string, string][];
  /** The path item, its `$ref` (if any) followed. */
  item: Obj;
  /** Pointer of the key (`/paths/~1a` or `/webhooks/newPet`). */
  pointer: string;
  webhook: boolean;
}

/** Follows a path item's `$ref` chain; a dangling or circular one is a finding. */
function resolveItem(
  doc: Obj,
  value: unknown,
  pointer: string,
  findings: Findings,
): Obj | undefined {
  let node = value;
  const seen = new Set<string>();
  for (let target = refPointer(node); target !== undefined; target = refPointer(node)) {
    if (seen.has(target)) {
      findings.add('path-item-ref-cycle', pointer, `path item $ref cycle through #${target}`);
      return undefined;
    }
    seen.add(target);
    const next = getAt(doc, target);
    if (!isObject(next)) {
      findings.add('path-item-ref-dangling', pointer, `path item $ref #${target} names no object`);
      return undefined;
    }
    // 3.1 lets siblings of the `$ref` add to (and override) the referenced path item.
    const { $ref: _ref, ...siblings } = node as Obj;
    node = { ...next, ...siblings };
  }
  if (isObject(node) && typeof node['$ref'] === 'string') {
    findings.add(
      'path-item-ref-external',
      pointer,
      `path item $ref ${node['$ref']} is not bundled`,
    );
    return undefined;
  }
  return isObject(node) ? node : undefined;
}

/** The name a query value of a path key stands for (`{src}`), if it is a template expression. */
export const templateName = (value: string): string | undefined =>
  /^\{([^{}]+)\}$/.exec(value)?.[1];

/** Splits a path key into its routable path, fixed query pairs and fragment. */
export function splitPathKey(key: string): {
  path: string;
  fixed: [string, string][];
  fragment?: string;
} {
  let rest = key;
  let fragment: string | undefined;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const fixed: [string, string][] = [];
  const q = rest.indexOf('?');
  if (q >= 0) {
    for (const [name, value] of new URLSearchParams(rest.slice(q + 1))) fixed.push([name, value]);
    rest = rest.slice(0, q);
  }
  let path = rest.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  return { path, fixed, ...(fragment !== undefined ? { fragment } : {}) };
}

function pathEntries(doc: Obj, findings: Findings): PathEntry[] {
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  const out: PathEntry[] = [];
  for (const key of Object.keys(paths).sort()) {
    const pointer = joinPointer('paths', key);
    const item = resolveItem(doc, paths[key], pointer, findings);
    if (!item) continue;
    const { path, fixed } = splitPathKey(key);
    if (!key.trim().startsWith('/'))
      findings.add(
        'path-key-relative',
        pointer,
        `path key does not start with "/": read as ${path}`,
      );
    out.push({ key, path, fixed, item, pointer, webhook: false });
  }
  return out;
}

function webhookEntries(doc: Obj, findings: Findings): PathEntry[] {
  const hooks = isObject(doc['webhooks']) ? doc['webhooks'] : {};
  const out: PathEntry[] = [];
  for (const key of Object.keys(hooks).sort()) {
    const pointer = joinPointer('webhooks', key);
    const item = resolveItem(doc, hooks[key], pointer, findings);
    if (item) out.push({ key, path: key, fixed: [], item, pointer, webhook: true });
  }
  return out;
}

/** Findings of a path key that carries a fragment or a query (one per operation under it). */
export function reportPathKey(entry: PathEntry, findings: Findings): void {
  const { fragment } = splitPathKey(entry.key);
  if (fragment !== undefined) {
    findings.add(
      'path-key-fragment',
      entry.pointer,
      `path key has a fragment (#${fragment}): served at ${entry.path}, told apart by its operation id`,
    );
  }
  if (entry.fixed.length > 0) {
    // A value that is a template expression (`?src={src}`) is a query parameter, not fixed text.
    const taken = entry.fixed.filter(([, v]) => templateName(v) !== undefined);
    const fixed = taken.length < entry.fixed.length ? ' with fixed query parameters' : '';
    const read = taken.map(([n, v]) => `${v} is read as the query parameter ${n}`).join(', ');
    findings.add(
      'path-key-query',
      entry.pointer,
      `path key has a query (${entry.fixed.map(([n, v]) => `${n}=${v}`).join('&')}): served at ${entry.path}${fixed}${read ? `${fixed ? ';' : ','} ${read}` : ''}`,
    );
  }
}

/** Every path item of `paths` then `webhooks`, keys sorted. */
export function readPathItems(doc: Obj, findings: Findings): PathEntry[] {
  return [...pathEntries(doc, findings), ...webhookEntries(doc, findings)];
}
