/**
 * The per-route facts the server's behaviours read, computed once when a route is registered and
 * carried in Fastify's `routeOptions.config.dataapi` (as @fastify/rate-limit reads
 * `config.rateLimit`). Each behaviour (request checks, authentication, rate limits) is an
 * `onRoute` hook that reads this and attaches its own request hooks to the routes that need them.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Operation, RateLimit } from 'dataapi/model';
import { mediaEssence } from './parsers.ts';
import type { PathMatcher } from './routes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation facts of a dataapi route (see RouteContext). */
    dataapi?: RouteContext;
  }
}

export interface RouteContext {
  op: Operation;
  preview: boolean;
  /** The methods declared for this route's path (the Allow header of a 405). */
  allow: string;
  /** The media type (essence) the operation's body must come in, if it has a body. */
  bodyType: string;
  /** A key is read and verified on this route (not on preview variants). */
  needsKey: boolean;
  /** The key may be absent (the operation's security is optional); a key given is still checked. */
  optionalKey: boolean;
  /** The rate-limit windows of this route (`Operation.rateLimits`, shortest first). */
  windows: RateLimit[];
  /** Prefix of this route's rate-limit buckets (`<opId>[:preview]`). */
  bucket: string;
}

export function routeContext(op: Operation, preview: boolean, matcher: PathMatcher): RouteContext {
  const path = preview && op.preview ? op.preview.path : op.path;
  const needsKey = !preview && op.auth.transports.length > 0;
  // The Allow header is read by a 405 only: matched on first use, not for each route at start
  // (GitHub's 1,223 routes: a tenth of the route registration).
  let allow: string | undefined;
  return {
    op,
    preview,
    get allow() {
      return (allow ??= matcher.match(path)?.methods.join(', ') ?? op.method.toUpperCase());
    },
    bodyType: op.body ? mediaEssence(op.body.mediaType) : '',
    needsKey,
    optionalKey: needsKey && !op.auth.required,
    windows: op.rateLimits,
    bucket: `${op.id}${preview ? ':preview' : ''}`,
  };
}

const OPERATION = Symbol('dataapi.operation');

/** The operation a request was routed to (dispatch.ts: the operations share a route per method). */
export function routeTo(request: FastifyRequest, ctx: RouteContext): void {
  (request as unknown as { [OPERATION]?: RouteContext })[OPERATION] = ctx;
}

/** The route context of an operation route's options or of a request, if it is an operation's. */
export function contextOf(source: RouteOptions | FastifyRequest): RouteContext | undefined {
  if (!('routeOptions' in source)) return source.config?.dataapi;
  return (source as unknown as { [OPERATION]?: RouteContext })[OPERATION];
}

/**
 * What a behaviour does to each operation route (as an `onRoute` hook would): reads its context
 * and appends its request hooks. The routes are the operations' own (dispatch.ts), made when an
 * operation is first asked for, so a behaviour registers here instead of as an `onRoute` hook.
 */
export type OperationRouteHook = (routeOptions: RouteOptions) => void;

const behaviours = new WeakMap<object, OperationRouteHook[]>();

/** Adds a behaviour to every operation route of the app (in the order they are added). */
export function onOperationRoute(app: object, hook: OperationRouteHook): void {
  const list = behaviours.get(app);
  if (list) list.push(hook);
  else behaviours.set(app, [hook]);
}

/** The behaviours added to the app's operation routes. */
export function operationRouteHooks(app: object): readonly OperationRouteHook[] {
  return behaviours.get(app) ?? [];
}

const ANSWERED_FOR = Symbol('dataapi.answeredFor');

/**
 * Records the operations an answer given outside their routes speaks for (the 405 on their path),
 * so that later hooks (the mock's declared response headers) know whose responses it is.
 */
export function answerFor(request: FastifyRequest, ops: readonly Operation[]): void {
  (request as unknown as { [ANSWERED_FOR]?: readonly Operation[] })[ANSWERED_FOR] = ops;
}

/** The operations whose declared responses the answer to a request is: answerFor's, else the route's. */
export function operationsOf(request: FastifyRequest): readonly Operation[] {
  const named = (request as unknown as { [ANSWERED_FOR]?: readonly Operation[] })[ANSWERED_FOR];
  if (named) return named;
  const op = contextOf(request)?.op;
  return op ? [op] : [];
}

type HookName = 'onRequest' | 'preValidation' | 'preHandler';

/** Appends a request hook to a route, after the ones it already has (as Fastify's plugins do). */
export function appendHook(
  routeOptions: RouteOptions,
  name: HookName,
  hook: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  append(routeOptions, name, hook);
}

/**
 * appendHook of a hook that calls `done` (on the paths every request takes): Fastify continues
 * from it in the same tick instead of a promise's microtask later. A throw is Fastify's error
 * path, as a rejection is.
 */
export function appendDoneHook(
  routeOptions: RouteOptions,
  name: HookName,
  hook: (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void,
): void {
  append(routeOptions, name, hook);
}

function append(routeOptions: RouteOptions, name: HookName, hook: unknown): void {
  const existing = routeOptions[name] as unknown;
  const list = Array.isArray(existing) ? existing : existing ? [existing] : [];
  (routeOptions as unknown as Record<HookName, unknown[]>)[name] = [...list, hook];
}
