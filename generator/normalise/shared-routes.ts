/**
 * Operations that share a method and a route: path keys that differ only by a `#fragment` or a
 * `?query` (Box's `/files/{file_id}#add_shared_link`), or templates that differ only by their
 * parameter names (`/a/{id}` and `/a/{name}`). They cannot each have their own route, so a server
 * tells them apart per request (see runtime/server/routes.ts `chooseOperation`): the fixed query
 * parameters the request carries, then the required query parameters and headers it carries,
 * among those taking the request's body media type, then `Prefer: operation=<id>`; otherwise
 * the first of them answers. Each is a finding.
 */
import type { Operation } from '../../model/types.ts';
import type { Findings } from './findings.ts';

/** The route an operation is served at: method and template with its parameter names blanked. */
export function routeKey(op: Pick<Operation, 'method' | 'path'>): string {
  return `${op.method.toUpperCase()} ${op.path.replace(/\{[^}]*\}/g, '{}')}`;
}

export function reportSharedRoutes(operations: Operation[], findings: Findings): void {
  const byRoute = new Map<string, Operation[]>();
  for (const op of operations) {
    const key = routeKey(op);
    byRoute.set(key, [...(byRoute.get(key) ?? []), op]);
  }
  for (const [key, ops] of byRoute) {
    if (ops.length < 2) continue;
    // At most 8 names: 594 operations share ec2's `POST /`, and a full list in each of their 594
    // findings made the warnings alone hundreds of megabytes.
    const shown = ops.slice(0, 8).map((o) => o.id);
    const ids =
      ops.length > 8 ? `${shown.join(', ')} and ${ops.length - 8} more` : shown.join(', ');
    for (const op of ops) {
      findings.add(
        'operation-shared-route',
        op.pointer,
        `${ops.length} operations share ${key} (${ids}): a request is answered by the one whose fixed and required parameters and body media type it carries, or the one named by Prefer: operation=<id>`,
        op.id,
      );
    }
  }
}
