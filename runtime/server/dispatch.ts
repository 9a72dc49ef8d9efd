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

type Done = (error?: Error | null) => void;
type Hook = (request: FastifyRequest, reply: FastifyReply, done: Done) => unknown;
type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;
type Validate = ((data: unknown, context?: object) => unknown) & {
  errors?: unknown;
  schemaEnv?: unknown;
};
type Compile = (input: {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
  contentType?: string;
}) => Validate;

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

/** Fastify's hook runner (lib/hooks.js): in order, stopping at an error or a sent reply. */
function runHooks(hooks: Hook[], request: FastifyRequest, reply: FastifyReply, cb: Done): void {
  let i = 0;
  const next = (err?: Error | null): void => {
    if (err || i === hooks.length) return cb(err);
    let result: unknown;
    try {
      const hook = hooks[i++]!;
      if (reply.sent === true) return;
      result = hook(request, reply, next);
    } catch (error) {
      return cb(error as Error);
    }
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => next(),
        (error: unknown) => cb((error as Error) ?? new Error('promise rejected without an error')),
      );
    }
  };
  next();
}

type Formatter = (errors: unknown, dataVar: string) => Error;

/** Fastify's default (lib/context.js). */
const defaultFormatter: Formatter = (errors, dataVar) => {
  let text = '';
  for (const e of errors as { instancePath?: string; message?: string }[])
    text += `${dataVar}${e.instancePath || ''} ${e.message}, `;
  return new Error(text.slice(0, -2));
};

/** The app's schemaErrorFormatter (a Fastify option), else Fastify's default. */
function formatterOf(app: FastifyInstance): Formatter {
  const key = Object.getOwnPropertySymbols(app).find(
    (s) => s.description === 'fastify.schemaErrorFormatter',
  );
  const own = key ? (app as unknown as Record<symbol, unknown>)[key] : undefined;
  return typeof own === 'function' ? (own as Formatter) : defaultFormatter;
}

/** Fastify's wrapValidationError (lib/validation.js). */
function wrap(result: unknown, dataVar: string, format: Formatter): Error {
  const error = (result instanceof Error ? result : format(result, dataVar)) as Error &
    Record<string, unknown>;
  error.statusCode = error.statusCode || 400;
  error.code = error.code || 'FST_ERR_VALIDATION';
  if (!(result instanceof Error)) error.validation = result;
  error.validationContext = error.validationContext || dataVar;
  return error;
}

/** Fastify's validateParam (lib/validation.js), for synchronous validators. */
function check(fn: Validate | undefined, request: FastifyRequest, name: string): unknown {
  if (fn == null) return false;
  const bag = request as unknown as Record<string, unknown>;
  const value = bag[name];
  let ret: unknown;
  try {
    const data = value === undefined ? null : value;
    ret = fn.schemaEnv ? fn(data, { parentData: request, parentDataProperty: name }) : fn(data);
  } catch (err) {
    (err as { statusCode?: number }).statusCode = 500;
    return err;
  }
  if (ret === false) return fn.errors;
  if (ret && (ret as { error?: unknown }).error) return (ret as { error: unknown }).error;
  if (ret && typeof ret === 'object' && 'value' in ret)
    bag[name] = (ret as { value: unknown }).value;
  return false;
}

/** An operation's validation: Fastify's compile of a route's schemas, and its order. */
function validation(
  schema: RouteSchemas,
  compile: Compile,
  method: string,
  url: string,
  format: Formatter,
): (request: FastifyRequest) => Error | false {
  const c = (s: unknown, httpPart: string, contentType?: string) =>
    compile({ schema: s, method, url, httpPart, ...(contentType ? { contentType } : {}) });
  const headers = schema.headers !== undefined ? c(schema.headers, 'headers') : undefined;
  const content = (schema.body as { content?: Record<string, { schema: unknown }> } | undefined)
    ?.content;
  let body: Validate | Record<string, Validate> | undefined;
  if (schema.body !== undefined && content && typeof content === 'object') {
    body = Object.fromEntries(
      Object.keys(content).map((t) => [t, c(content[t]!.schema, 'body', t)]),
    );
  } else if (schema.body !== undefined) body = c(schema.body, 'body');
  const query = schema.querystring !== undefined ? c(schema.querystring, 'querystring') : undefined;
  const params = schema.params !== undefined ? c(schema.params, 'params') : undefined;
  return (request) => {
    let r = check(params, request, 'params');
    if (r) return wrap(r, 'params', format);
    const bodyFn =
      typeof body === 'function'
        ? body
        : body?.[(request as unknown as { mediaType: string }).mediaType];
    r = check(bodyFn, request, 'body');
    if (r) return wrap(r, 'body', format);
    r = check(query, request, 'query');
    if (r) return wrap(r, 'querystring', format);
    r = check(headers, request, 'headers');
    if (r) return wrap(r, 'headers', format);
    return false;
  };
}

export interface Dispatch {
  /** Adds an operation's route; throws as Fastify's router would for a route it refuses. */
  add(route: OperationRoute): void;
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
  },
): Dispatch {
  const config = app.initialConfig as {
    routerOptions?: Record<string, unknown>;
    caseSensitive?: boolean;
  };
  const { compile: _compiled, ...routerOptions } = config.routerOptions ?? {};
  const router = FindMyWay({
    ...routerOptions,
    caseSensitive: config.caseSensitive ?? true,
    ...(options.constraints ? { constraints: options.constraints as never } : {}),
  });
  // What find-my-way's own lookup derives a request's constraints with (not in its types).
  const constrainer = (
    router as unknown as {
      constrainer: { deriveConstraints(req: IncomingMessage, ctx: undefined): never };
    }
  ).constrainer;
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
    const found = router.find(
      method as never,
      raw.url ?? '/',
      constrainer.deriveConstraints(raw, undefined),
    );
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
      const store = entry as unknown as Record<string, unknown>;
      const on = (method: string) =>
        router.on(
          method as never,
          route.url,
          route.constraint
            ? { constraints: { [route.constraint.name]: route.constraint.value } }
            : {},
          () => undefined,
          store,
        );
      // A router refuses before it changes anything (find-my-way checks the path first).
      on(route.method);
      methods.add(route.method);
      if (route.withHead) {
        if (!options.headAsGet) on('HEAD');
        methods.add('HEAD');
      }
    },
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
