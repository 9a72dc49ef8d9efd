/**
 * The operations' routes without a Fastify route each: one route per HTTP method (`/*`), and a
 * router of the operations' own (find-my-way, as Fastify's, with the app's router options and the
 * same route URLs and constraints) that picks the operation and its path parameters. Registering
 * GitHub's 1,223 routes one by one was most of its mock's start; here an operation's hooks,
 * validators and handler are made when it is first asked for.
 *
 * A request goes through the steps of a route of its own, in the same order: the app's onRequest
 * hooks, then the operation's; the body parsed; the app's preValidation hooks, then the
 * operation's; params, body, query and headers validated as Fastify validates them (the same
 * errors); the handler. A GET's route answers HEAD (head.ts). A request no operation matches is
 * the not-found handler's, as when no route matched.
 */
import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { headOnSend } from './head.ts';
import { operationRouteHooks, routeTo, type RouteContext } from './route-context.ts';
import type { RouteSchemas } from './validation.ts';
import { formatterOf, runHooks, validation, type Compile, type Hook } from './fastify-steps.ts';

type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** What an operation's route is made of, made on its first request. */
export interface RouteParts {
  schema: RouteSchemas;
  handler: RouteHandler;
  /** Its own first preValidation hook (the first-use compile), before the behaviours'. */
  preValidation?: Hook;
}

export interface OperationRoute {
  ctx: RouteContext;
  /** Upper case. */
  method: string;
  /** The find-my-way URL (`/a/:p0/b`). */
  url: string;
  /** A GET's route that answers HEAD too. */
  withHead: boolean;
  /** The operation of a shared route (choose.ts), when it is not the route's owner. */
  constraint?: { name: string; value: string };
  make: () => RouteParts;
}

interface Made {
  onRequest: Hook[];
  preValidation: Hook[];
  validate: (request: FastifyRequest) => Error | false;
  handler: RouteHandler;
}

interface Entry {
  route: OperationRoute;
  made?: Made;
}

interface Router {
  tree: ReturnType<typeof FindMyWay>;
  derive: (req: IncomingMessage) => never;
}

export interface Dispatch {
  /**
   * Adds an operation's route; throws as Fastify's router would for a route it refuses (lazy:
   * queued, and reported to onRefused when its tree is filled).
   */
  add(route: OperationRoute): void;
  /** The methods whose trees are still to be filled (lazy). */
  pending(): string[];
  /** Fills a method's tree now (lazy; the first request of the method would). */
  build(method: string): void;
  /**
   * The routes of the methods the operations have, on the app; returns, for each method whose
   * route the app refused (a method Fastify does not serve), why.
   */
  install(): Map<string, unknown>;
}

export function createDispatch(
  app: FastifyInstance,
  options: {
    compile: Compile;
    bodyLimit: number;
    constraints?: Record<string, unknown>;
    notFound: (request: FastifyRequest, reply: FastifyReply) => unknown;
    /** No explicit HEAD operation: a HEAD request is routed as its GET (one tree less). */
    headAsGet: boolean;
    /**
     * Fill each method's tree when it is first needed (a request of that method, or `build`),
     * reporting the routes it refuses to onRefused then, instead of `add` throwing.
     */
    lazy?: boolean;
    onRefused?: (route: OperationRoute, error: unknown) => void;
  },
): Dispatch {
  const config = app.initialConfig as {
    routerOptions?: Record<string, unknown>;
    caseSensitive?: boolean;
  };
  const { compile: _compiled, ...routerOptions } = config.routerOptions ?? {};
  // One router per method (find-my-way keeps a tree per method either way), each filled when
  // first needed in lazy mode: a start then fills only the trees its first requests ask for.
  const routers = new Map<string, Router>();
  const treeOf = (method: string): Router => {
    let router = routers.get(method);
    if (!router) {
      const made = FindMyWay({
        ...routerOptions,
        caseSensitive: config.caseSensitive ?? true,
        ...(options.constraints ? { constraints: options.constraints as never } : {}),
      });
      // What find-my-way's own lookup derives a request's constraints with (not in its types).
      const { constrainer } = made as unknown as {
        constrainer: { deriveConstraints(req: IncomingMessage, ctx: undefined): never };
      };
      routers.set(
        method,
        (router = { tree: made, derive: (req) => constrainer.deriveConstraints(req, undefined) }),
      );
    }
    return router;
  };
  const insert = (method: string, entry: Entry) => {
    const { route } = entry;
    treeOf(method).tree.on(
      method as never,
      route.url,
      route.constraint ? { constraints: { [route.constraint.name]: route.constraint.value } } : {},
      () => undefined,
      entry as unknown as Record<string, unknown>,
    );
  };
  const pending = new Map<string, Entry[]>();
  const refused = new Set<Entry>();
  /** Fills a method's tree with its queued routes; a route it refuses is reported. */
  const build = (method: string) => {
    const queued = pending.get(method);
    if (!queued) return;
    pending.delete(method);
    for (const entry of queued) {
      if (refused.has(entry)) continue;
      try {
        insert(method, entry);
      } catch (error) {
        refused.add(entry);
        options.onRefused?.(entry.route, error);
      }
    }
  };
  const lookup = (method: string, raw: IncomingMessage) => {
    build(method);
    const router = routers.get(method);
    return router ? router.tree.find(method as never, raw.url ?? '/', router.derive(raw)) : null;
  };
  const format = formatterOf(app);
  const methods = new Set<string>();
  const hooks = operationRouteHooks(app);

  const make = (entry: Entry): Made => {
    const { route } = entry;
    const parts = route.make();
    // The options an onRoute hook would have seen: the behaviours append their hooks to them.
    const routeOptions = {
      method: route.withHead ? ['GET', 'HEAD'] : route.method,
      url: route.url,
      config: { dataapi: route.ctx },
      ...(parts.preValidation ? { preValidation: [parts.preValidation] } : {}),
      handler: parts.handler,
    } as unknown as RouteOptions & { onRequest?: Hook[]; preValidation?: Hook[] };
    for (const hook of hooks) hook(routeOptions);
    const list = (h: unknown) => (Array.isArray(h) ? (h as Hook[]) : h ? [h as Hook] : []);
    return {
      onRequest: list(routeOptions.onRequest),
      preValidation: list(routeOptions.preValidation),
      validate: validation(parts.schema, options.compile, route.method, route.url, format),
      handler: parts.handler,
    };
  };

  const ENTRY = Symbol('dataapi.entry');
  type Routed = { [ENTRY]?: Entry };
  const entryOf = (request: FastifyRequest) => (request as unknown as Routed)[ENTRY];
  const madeOf = (request: FastifyRequest) => {
    const entry = entryOf(request)!;
    return (entry.made ??= make(entry));
  };

  const onRequest: Hook = (request, reply, done) => {
    const raw = request.raw as IncomingMessage;
    const method = request.method === 'HEAD' && options.headAsGet ? 'GET' : request.method;
    const found = lookup(method, raw);
    if (!found) {
      // As the not-found handler of a request no route matched: nothing of the operations' runs
      // (this request's steps end here, as a hook's do once the reply is sent).
      try {
        void options.notFound(request, reply);
      } catch (error) {
        done(error as Error);
      }
      return;
    }
    const entry = found.store as Entry;
    (request as unknown as Routed)[ENTRY] = entry;
    routeTo(request, entry.route.ctx);
    (request as unknown as { params: unknown }).params = found.params;
    let made: Made;
    try {
      made = madeOf(request);
    } catch (error) {
      return done(error as Error);
    }
    runHooks(made.onRequest, request, reply, done);
  };
  const preValidation: Hook = (request, reply, done) => {
    const made = madeOf(request);
    runHooks(made.preValidation, request, reply, (err) => {
      if (err) return done(err);
      if (reply.sent === true) return done();
      const invalid = made.validate(request);
      done(invalid === false ? null : invalid);
    });
  };
  const handler: RouteHandler = (request, reply) => madeOf(request).handler(request, reply);
  const onSend = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload: unknown) => void,
  ) => {
    const entry = entryOf(request);
    if (entry?.route.withHead) return headOnSend(request, reply, payload, done);
    done(null, payload);
  };

  return {
    add(route) {
      const entry: Entry = { route };
      const trees = route.withHead && !options.headAsGet ? [route.method, 'HEAD'] : [route.method];
      methods.add(route.method);
      if (route.withHead) methods.add('HEAD');
      if (options.lazy) {
        for (const m of trees) pending.set(m, [...(pending.get(m) ?? []), entry]);
        return;
      }
      // A router refuses before it changes anything (find-my-way checks the path first).
      for (const m of trees) insert(m, entry);
    },
    pending: () => [...pending.keys()],
    build,
    install() {
      const refused = new Map<string, unknown>();
      for (const method of methods) {
        try {
          app.route({
            method: method as 'GET',
            url: '/*',
            exposeHeadRoute: false,
            bodyLimit: options.bodyLimit,
            onRequest: onRequest as never,
            preValidation: preValidation as never,
            onSend: onSend as never,
            handler,
          });
        } catch (error) {
          refused.set(method, error);
        }
      }
      return refused;
    },
  };
}
