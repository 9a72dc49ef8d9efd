/**
 * Which operation (and variant) an observed request is for: its method and concrete path matched
 * against every operation's path template and `/demo` variant. A literal segment beats a template
 * one (`/tasks/latest` before `/tasks/{id}`), as routers do.
 */
import { serverPath, type Operation, type ServiceModel } from 'dataapi/model';
import type { Variant } from '../exchange.ts';

export type Route =
  | { kind: 'operation'; op: Operation; variant: Variant }
  /** The path is documented, not with this method. */
  | { kind: 'undocumented-method'; allowed: string[] }
  | { kind: 'undocumented-path' };

interface Template {
  op: Operation;
  variant: Variant;
  re: RegExp;
  /** Literal segments: the more, the more specific. */
  literals: number;
}

const cache = new WeakMap<ServiceModel, Template[]>();

function templatesOf(model: ServiceModel): Template[] {
  let list = cache.get(model);
  if (list) return list;
  const make = (op: Operation, variant: Variant, path: string): Template => ({
    op,
    variant,
    re: new RegExp(
      `^${path
        .split(/(\{[^}]+\})/)
        .map((part, i) => (i % 2 ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('')}/?$`,
    ),
    literals: path.split('/').filter((s) => s && !s.startsWith('{')).length,
  });
  list = model.operations.flatMap((op) => [
    make(op, 'main', op.path),
    ...(op.preview ? [make(op, 'preview', op.preview.path)] : []),
  ]);
  list.sort((a, b) => b.literals - a.literals);
  cache.set(model, list);
  return list;
}

/** Routes of recent requests, per model: traffic asks the same few over and over. */
const recent = new WeakMap<ServiceModel, Map<string, Route>>();
const RECENT_MAX = 2000;

/**
 * The route of a request; a path under the description's server path (`/api/v1/servers` for a
 * server URL ending in `/api/v1`) is routed as the operation's path without it.
 */
export function routeOf(model: ServiceModel, method: string, path: string): Route {
  let routes = recent.get(model);
  if (!routes) recent.set(model, (routes = new Map()));
  const key = `${method} ${path}`;
  let route = routes.get(key);
  if (!route) {
    // Paths with ids in them never end: the memo starts again rather than grow.
    if (routes.size >= RECENT_MAX) routes.clear();
    route = routeAfresh(model, method, path);
    routes.set(key, route);
  }
  return route;
}

function routeAfresh(model: ServiceModel, method: string, path: string): Route {
  const route = routeOfPath(model, method, path);
  const prefix = serverPath(model);
  if (route.kind !== 'undocumented-path' || prefix === '' || !path.startsWith(`${prefix}/`))
    return route;
  return routeOfPath(model, method, path.slice(prefix.length));
}

function routeOfPath(model: ServiceModel, method: string, path: string): Route {
  const m = method.toLowerCase();
  // HEAD is answered by a GET route (HTTP semantics), so a documented GET covers it.
  const hits = templatesOf(model).filter((t) => t.re.test(path));
  const hit =
    hits.find((t) => t.op.method === m) ??
    (m === 'head' ? hits.find((t) => t.op.method === 'get') : undefined);
  if (hit) return { kind: 'operation', op: hit.op, variant: hit.variant };
  if (hits.length > 0)
    return {
      kind: 'undocumented-method',
      allowed: [...new Set(hits.map((t) => t.op.method.toUpperCase()))],
    };
  return { kind: 'undocumented-path' };
}
