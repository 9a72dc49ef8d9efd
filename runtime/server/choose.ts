/**
 * Operations that share a method and a route (path keys told apart only by a `#fragment` or a
 * `?query`, or templates that differ only by parameter names) cannot each own a Fastify route.
 * The first of them owns the route; the others are registered on it with a route constraint,
 * and this strategy picks per request which one answers: the one `Prefer: operation=<id>` names,
 * else the one whose fixed query values the request carries (most first), else the one whose
 * required query parameters and headers it carries (most first), among those that take the
 * request's body media type; else the owner. A required header or query parameter of one allowed
 * value (AWS's `X-Amz-Target: Service.Operation`) counts as fixed.
 *
 * find-my-way holds at most 31 handlers per route when they are told apart by a constraint: a
 * larger group (AWS's JSON services: every operation is `POST /`) is served instead at internal
 * URLs of their own, which `sharedRouteRewriter` (Fastify's `rewriteUrl`) sends requests to.
 */
import type { IncomingMessage } from 'node:http';
import {
  allParameters,
  serverPath,
  type Operation,
  type Parameter,
  type ServiceModel,
} from 'dataapi/model';

export const OPERATION_CONSTRAINT = 'dataapiOperation';

/** The route an operation is served at: method and template with parameter names blanked. */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
}

interface Group {
  regex: RegExp;
  method: string;
  /** The owner first, then the others in declaration order. */
  ops: Operation[];
}

function templateRegex(path: string): RegExp {
  const source = path
    .split(/(\{[^}]*\})/)
    .map((part) =>
      /^\{[^}]*\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

/** The one value a parameter may take: the path key's query pair, or a single-valued enum/const. */
function fixedValue(p: Parameter): string | undefined {
  if (p.fixed !== undefined) return p.fixed;
  if (!p.required || typeof p.schema !== 'object' || p.schema === null) return undefined;
  const s = p.schema as { const?: unknown; enum?: unknown[] };
  const only = s.const !== undefined ? s.const : s.enum?.length === 1 ? s.enum[0] : undefined;
  return typeof only === 'string' || typeof only === 'number' ? String(only) : undefined;
}

const fixedOf = (op: Operation) =>
  [...op.parameters.query, ...op.parameters.header].filter((p) => fixedValue(p) !== undefined);
const fixedCount = (op: Operation) => fixedOf(op).length;

/** Handlers find-my-way tells apart by a constraint on one route. */
export const MAX_CONSTRAINED = 31;

/** Where an operation of a group too large for constraints is served. */
export function internalUrl(op: Operation, url: string): string {
  return `/.dataapi-op/${op.id}${url}`;
}

/** The shared routes of a model: for each operation that is not its route's owner, the owner. */
export function sharedRoutes(model: ServiceModel): {
  groups: Group[];
  owner: Map<Operation, Operation>;
} {
  const byKey = new Map<string, Operation[]>();
  for (const op of model.operations) {
    const key = routeKey(op.method, op.path);
    byKey.set(key, [...(byKey.get(key) ?? []), op]);
  }
  const groups: Group[] = [];
  const owner = new Map<Operation, Operation>();
  for (const ops of byKey.values()) {
    if (ops.length < 2) continue;
    // The plainest operation owns the route: no fixed query, its key the path itself.
    const sorted = [...ops].sort(
      (a, b) =>
        fixedCount(a) - fixedCount(b) ||
        Number(a.pathKey !== a.path) - Number(b.pathKey !== b.path),
    );
    const first = sorted[0] as Operation;
    for (const op of sorted.slice(1)) owner.set(op, first);
    groups.push({
      regex: templateRegex(first.path),
      method: first.method.toUpperCase(),
      ops: sorted,
    });
  }
  return { groups, owner };
}

function preferred(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header.join(',') : header;
  const m = text ? /(?:^|[,;\s])operation=("?)([^",;\s]+)\1/i.exec(text) : null;
  return m?.[2];
}

/** Picks the operation of a shared route that answers a request (see the module comment). */
export function chooseOperation(
  group: Group,
  query: URLSearchParams,
  req: IncomingMessage,
): Operation {
  const named = preferred(req.headers.prefer);
  const byName = named ? group.ops.find((o) => o.id === named) : undefined;
  if (byName) return byName;
  const fixedOk = (op: Operation) =>
    op.parameters.query.every((p) => {
      const value = fixedValue(p);
      return value === undefined || query.getAll(p.name).includes(value);
    }) &&
    op.parameters.header.every((p) => {
      const value = fixedValue(p);
      const sent = req.headers[p.name.toLowerCase()];
      return value === undefined || (Array.isArray(sent) ? sent : [sent]).includes(value);
    });
  // The required query and header parameters are there (path and cookie ones are not asked).
  const carries = (op: Operation) =>
    op.parameters.query.every((p) => !p.required || query.has(p.name)) &&
    op.parameters.header.every(
      (p) => !p.required || req.headers[p.name.toLowerCase()] !== undefined,
    );
  // A body in a media type the operation does not take (`#add` JSON, `#update` JSON Patch).
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const takes = (op: Operation) =>
    type === '' || !op.body || op.body.mediaType.split(';')[0]!.trim().toLowerCase() === type;
  const score = (op: Operation) =>
    fixedCount(op) * 1000 + allParameters(op.parameters).filter((p) => p.required).length;
  const fitting = group.ops.filter((o) => fixedOk(o) && carries(o) && takes(o));
  fitting.sort((a, b) => score(b) - score(a));
  return fitting[0] ?? (group.ops[0] as Operation);
}

/** The find-my-way constraint strategy that routes a request to its operation's handler. */
export function operationStrategy(model: ServiceModel) {
  const { groups } = sharedRoutes(model);
  return {
    name: OPERATION_CONSTRAINT,
    mustMatchWhenDerived: false,
    storage() {
      const handlers = new Map<string, unknown>();
      return {
        get: (id: string) => (handlers.get(id) ?? null) as never,
        set: (id: string, store: unknown) => {
          handlers.set(id, store);
        },
      };
    },
    deriveConstraint(req: IncomingMessage): string | undefined {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
      for (const g of groups) {
        if (g.method !== req.method || !g.regex.test(pathname)) continue;
        return chooseOperation(g, query, req).id;
      }
      return undefined;
    },
  };
}

/**
 * Fastify's `rewriteUrl` for the groups too large for constraints (undefined when there are
 * none): a request on such a route goes to the internal URL of the operation chosen for it.
 */
export function sharedRouteRewriter(
  model: ServiceModel,
): ((req: IncomingMessage) => string) | undefined {
  const large = sharedRoutes(model).groups.filter((g) => g.ops.length > MAX_CONSTRAINED);
  if (large.length === 0) return undefined;
  return (req) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    for (const g of large) {
      if (g.method !== req.method || !g.regex.test(pathname)) continue;
      const op = chooseOperation(g, new URLSearchParams(q < 0 ? '' : url.slice(q + 1)), req);
      return op === g.ops[0] ? url : internalUrl(op, url);
    }
    return url;
  };
}

/** The operations served at internal URLs (see sharedRouteRewriter). */
export function rewrittenOperations(model: ServiceModel): Set<Operation> {
  const out = new Set<Operation>();
  for (const g of sharedRoutes(model).groups)
    if (g.ops.length > MAX_CONSTRAINED) for (const op of g.ops.slice(1)) out.add(op);
  return out;
}

/**
 * `{ rewriteUrl }` for `Fastify(...)` when the model needs it, else nothing: shared routes, and
 * the description's server path (`/api/v1` of a server URL `https://host/api/v1`), under which the
 * operations are answered as well as at the root, as a client of the description sends them.
 */
export function rewriteOption(model: ServiceModel): {
  rewriteUrl?: (req: IncomingMessage) => string;
} {
  const shared = sharedRouteRewriter(model);
  const prefix = serverPath(model);
  if (prefix === '') return shared ? { rewriteUrl: shared } : {};
  const strip = (url: string) =>
    url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`) || url === prefix
      ? url.slice(prefix.length).replace(/^(?!\/)/, '/')
      : url;
  return {
    rewriteUrl: (req) => {
      const url = strip(req.url ?? '/');
      if (!shared) return url;
      req.url = url;
      return shared(req);
    },
  };
}
