/**
 * OpenAPI path templates as Fastify routes, and the path matcher behind 404 versus 405: Fastify
 * answers a known path with an undeclared method as "not found", so the not-found handler asks
 * this matcher which declared methods the path has.
 */
import { deref, type Operation, type ServiceModel } from 'dataapi/model';

/** Per-route facts, computed once at registration. */
export interface RouteContext {
  op: Operation;
  preview: boolean;
  /** The methods declared for this route's path (the Allow header of a 405). */
  allow: string;
}

export interface RoutePath {
  /** The Fastify URL (`/a/:p0/b`). */
  url: string;
  /** Fastify param name -> OpenAPI parameter name. */
  params: Map<string, string>;
}

const SAFE_PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Converts `/a/{kb-id}/b:c` to `/a/:p0/b::c` (find-my-way syntax; odd names get safe aliases).
 * A parameter followed by a colon (Google's `/v1/{name}:execute`) is written as a regex parameter:
 * find-my-way reads `:name::execute` as one parameter named `name::execute`, which matches any
 * segment, so every `{x}:verb` template of a path was one route and took the others' requests.
 * So is every parameter that shares its segment with other text (`{latitude},{longitude}`,
 * `{name}.json`): find-my-way tells such parameters apart by themselves only at `-` and `.`, and
 * took `latitude,:longitude` for one name. The regex is tested on the decoded value, so it takes
 * any character: a value with an encoded slash (`%2F`) is still one segment (find-my-way never
 * lets a parameter cross a raw `/`).
 */
export function toRoutePath(path: string, enumOf: EnumOf = () => undefined): RoutePath {
  const params = new Map<string, string>();
  let index = 0;
  const parts = path.split(/(\{[^}]*\})/);
  const url = parts
    .map((part, i) => {
      const m = /^\{([^}]*)\}$/.exec(part);
      if (!m) return part.replace(/:/g, '::');
      const name = m[1] ?? '';
      const alias = SAFE_PARAM.test(name) && !params.has(name) ? name : `p${index}`;
      index += 1;
      params.set(alias, name);
      // Text beside it in the same segment (after: up to the next `/`; before: since the last),
      // or another template right beside it (`{id}{ext}`: split by the empty text between).
      const after = parts[i + 1] ?? '';
      const before = parts[i - 1] ?? '';
      const nextTemplate = after === '' && i + 2 < parts.length;
      const shared =
        (after !== '' && !after.startsWith('/')) ||
        (before !== '' && !before.endsWith('/')) ||
        nextTemplate ||
        (before === '' && i >= 2);
      if (!shared) return `:${alias}`;
      return `:${alias}(^${adjacentRegex(parts, i, enumOf) ?? '.+?'})`;
    })
    .join('');
  return { url, params };
}

/** A path parameter's string values where its schema lists them (an enum), else undefined. */
export type EnumOf = (name: string) => readonly string[] | undefined;

/** Values find-my-way's regex syntax takes as written, once regex-escaped (no parentheses). */
const PLAIN = /^[A-Za-z0-9._~-]+$/;

/**
 * Two templates with no text between (`/profiles/{id}{mediaTypeExtension}`, the extension an enum
 * of `.json`): find-my-way read `:id:mediaTypeExtension` as one parameter of that name, so `id`
 * was never there. Each is its own regex parameter; where the second lists its values, the
 * first ends where one of them (and the segment's text after it) ends the segment, and the second
 * takes one of them, or else any text: a value outside the enum still routes, and is refused
 * by validation for its enum, not as no route.
 */
function adjacentRegex(parts: string[], i: number, enumOf: EnumOf): string | undefined {
  const valuesAt = (j: number) => {
    const m = /^\{([^}]*)\}$/.exec(parts[j] ?? '');
    const values = m ? enumOf(m[1] ?? '') : undefined;
    return values && values.length > 0 && values.every((v) => PLAIN.test(v))
      ? values.map(escapeRegex).join('|')
      : undefined;
  };
  // This one listed after a template: one of its values, or else any text.
  const own = parts[i - 1] === '' && i >= 2 ? valuesAt(i) : undefined;
  if (own !== undefined) return `${own}|.+?`;
  if (parts[i + 1] !== '' || i + 2 >= parts.length) return undefined;
  const next = valuesAt(i + 2);
  // Only where the rest of the segment after the listed one is plain text (or nothing).
  const rest = parts[i + 3] ?? '';
  const tail = rest.split('/')[0] ?? '';
  const third = rest === '' && i + 4 < parts.length;
  if (next === undefined || third || (tail !== '' && !PLAIN.test(tail))) return undefined;
  return `.+?(?=(?:${next})${escapeRegex(tail)}$)|.+?`;
}

/** The route of an operation's path (or its preview path), knowing its path parameters' enums. */
export function routePathOf(model: ServiceModel, op: Operation, path = op.path): RoutePath {
  return toRoutePath(path, (name) => {
    const p = op.parameters.path.find((x) => x.name === name);
    const s = p ? deref(model, p.schema) : undefined;
    const values = typeof s === 'object' ? s.enum : undefined;
    return Array.isArray(values) && values.every((v) => typeof v === 'string')
      ? (values as string[])
      : undefined;
  });
}

interface PathEntry {
  regex: RegExp;
  methods: string[];
  ops: Operation[];
}

export interface PathMatcher {
  /** The declared methods (upper case) and operations of the path the URL matches, if any. */
  match(pathname: string): { methods: string[]; ops: Operation[] } | undefined;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function templateRegex(path: string): RegExp {
  const source = path
    .split(/(\{[^}]*\})/)
    .map((part) => (/^\{[^}]*\}$/.test(part) ? '[^/]+' : escapeRegex(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

const segments = (path: string) => path.split('/').length;

/**
 * A request path as the router reads it: percent-escapes decoded (`/caf%C3%A9` is `/café`),
 * except an encoded `/`, which stays inside its segment. A malformed escape stays as it came.
 */
function decodePath(pathname: string): string {
  if (!pathname.includes('%')) return pathname;
  return pathname.replace(/(?:%(?!2f)[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Every declared path (and preview path) with its methods. Made when first asked (a 405, an Allow
 * header): a server that never answers one does not build it at start.
 */
export function createPathMatcher(model: ServiceModel): PathMatcher {
  let matcher: PathMatcher | undefined;
  return { match: (pathname) => (matcher ??= buildPathMatcher(model)).match(pathname) };
}

function buildPathMatcher(model: ServiceModel): PathMatcher {
  // Keyed by the template's shape: `/a/{id}` and `/a/{name}` are one route to a router, so a
  // path both match allows the methods of both.
  const byPath = new Map<string, PathEntry>();
  const add = (path: string, op: Operation) => {
    const shape = path.replace(/\{[^}]*\}/g, '{}');
    let entry = byPath.get(shape);
    if (!entry) byPath.set(shape, (entry = { regex: templateRegex(path), methods: [], ops: [] }));
    const method = op.method.toUpperCase();
    if (!entry.methods.includes(method)) entry.methods.push(method);
    entry.ops.push(op);
  };
  for (const op of model.operations) {
    add(op.path, op);
    if (op.preview) add(op.preview.path, op);
  }
  // Static paths first, so `/a/demo` wins over `/a/{id}`. A template matches only paths of its
  // number of segments (a parameter never spans a `/`): each count's entries, in that order, so a
  // lookup tries a few templates instead of all of them (start-up asks for every path).
  const entries = [...byPath.entries()].sort(
    ([a], [b]) => Number(a.includes('{')) - Number(b.includes('{')),
  );
  const isStatic = (e: PathEntry) => !e.regex.source.includes('[^/]+');
  const bySegments = new Map<number, PathEntry[]>();
  for (const [path, entry] of entries) {
    const list = bySegments.get(segments(path));
    if (list) list.push(entry);
    else bySegments.set(segments(path), [entry]);
  }
  return {
    match(raw) {
      const pathname = decodePath(raw);
      // The router routes each method on its own: every template the path matches (`/{a}/{b}`
      // and `/{a}/{b}.pgn` both match `/x/y.pgn`) serves its methods there. A static path wins.
      let hit: { methods: string[]; ops: Operation[] } | undefined;
      for (const e of bySegments.get(segments(pathname)) ?? []) {
        if (!e.regex.test(pathname)) continue;
        if (isStatic(e)) return e;
        if (!hit) hit = { methods: [...e.methods], ops: [...e.ops] };
        else {
          for (const m of e.methods) if (!hit.methods.includes(m)) hit.methods.push(m);
          hit.ops.push(...e.ops);
        }
      }
      return hit;
    },
  };
}
