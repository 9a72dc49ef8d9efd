/**
 * Operations that share a method and a route (path keys told apart only by a `#fragment` or a
 * `?query`, e.g. Box's `/files/{file_id}#add_shared_link`): a request to one of them may be
 * answered as another. The suite names the operation it means (`Prefer: operation=<id>`, which
 * the mock honours and other servers ignore, RFC 7240), and where a target still answers as a
 * sibling, that is the description's ambiguity (a warning), not the target's fault.
 */
import type { Operation, ServiceModel } from 'dataapi/model';

const byModel = new WeakMap<ServiceModel, Map<string, Operation[]>>();

const routeKey = (op: Operation) =>
  `${op.method.toUpperCase()} ${op.path.replace(/\{[^}]*\}/g, '{}')}`;

/** The other operations served at the same method and route as `op` (none, usually). */
export function siblingsOf(model: ServiceModel, op: Operation): Operation[] {
  let routes = byModel.get(model);
  if (!routes) {
    routes = new Map();
    for (const o of model.operations)
      routes.set(routeKey(o), [...(routes.get(routeKey(o)) ?? []), o]);
    byModel.set(model, routes);
  }
  return (routes.get(routeKey(op)) ?? []).filter((o) => o !== op);
}

/** The request header that names the operation meant, when the route is shared. */
export function operationPreference(model: ServiceModel, op: Operation): string | undefined {
  return siblingsOf(model, op).length > 0 ? `operation=${op.id}` : undefined;
}

/** The warning text of a probe a sibling may have answered. */
export function sharedRouteNote(siblings: Operation[], op: Operation): string {
  return `${op.method.toUpperCase()} ${op.path} is shared with ${siblings.map((s) => s.id).join(', ')}: the description does not say how a server tells them apart, so the target may have answered as one of them`;
}
