/**
 * registerService: every operation of the model (and its preview variant) served on a Fastify
 * instance. The operations share one Fastify route per method, and a router of their own picks
 * each request's operation (dispatch.ts); an operation's route carries its facts (route-context.ts)
 * and each behaviour adds its request hooks to the routes that need them, as Fastify's own plugins
 * do with `onRoute` hooks: request checks (route-checks.ts), authentication (route-auth.ts), rate
 * limits (route-limits.ts). Errors are answered in the operation's envelope with its group's
 * business codes (answers.ts); client errors are always 4xx, never 500.
 */
import type { FastifyInstance } from 'fastify';
import {
  internalUrl,
  OPERATION_CONSTRAINT,
  operationStrategy,
  rewrittenOperations,
  sharedRoutes,
} from './choose.ts';
import { createRouteGuard, notServed, routeRefused, unservableFinding } from './guard.ts';
import type { Finding, Operation, ServiceModel } from 'dataapi/model';
import type { VerifyKey } from './auth.ts';
import { installAnswers } from './answers.ts';
import { afterListening } from './background.ts';
import { defaultEnvelopeOp, type DescribeError } from './errors.ts';
import { keysVerifier } from './keys.ts';
import { installParamDecoding } from './param-styles.ts';
import { installParsers } from './parsers.ts';
import { installRequestChecks, type OnOperationRequest } from './route-checks.ts';
import { installAuth } from './route-auth.ts';
import { installDeprecationHeaders } from './route-deprecation.ts';
import { routeContext } from './route-context.ts';
import { routeHandler, type Handler } from './route-handler.ts';
import { installRateLimits, type RateLimitOptions } from './route-limits.ts';
import { createPathMatcher, routePathOf } from './routes.ts';
import { createDispatch } from './dispatch.ts';
import { routeSchemas, validatorCompiler, validatorsFor, type RouteSchemas } from './validation.ts';

export type { Handler, HandlerInput } from './route-handler.ts';
export type { RouteContext } from './route-context.ts';

export interface Limits {
  /** JSON, form and text bodies (default 1 MiB). */
  bodyBytes?: number;
  /** Each uploaded file (default 10 MiB). */
  fileBytes?: number;
  /** Files per request (default 10). */
  files?: number;
}

export interface ServiceOptions {
  model: ServiceModel;
  handlers: Record<string, Handler | undefined>;
  /**
   * Decides on a key (true, false or why it is refused). One key source is required when an
   * operation takes a key: `verifyKey`, `keys`, or `insecureAnyKey`.
   */
  verifyKey?: VerifyKey;
  /** The accepted keys, each the key itself or `sha256:<64 hex digits>` (see keys.ts). */
  keys?: string[];
  /** Accept any non-empty key. For local work only: a deployment with it is open to anyone. */
  insecureAnyKey?: boolean;
  /** Per-key, per-operation limits of op.rateLimit (default on, in memory). */
  rateLimit?: boolean | RateLimitOptions;
  limits?: Limits;
  /** Register the preview variants (default true). */
  previews?: boolean;
  /**
   * Runs first on every operation request, before the body is read (the mock's scenarios).
   * Throw an HttpError to answer with it.
   */
  onOperationRequest?: OnOperationRequest;
  /**
   * Told about each operation that cannot be served (a schema Ajv cannot compile, a path the
   * router refuses): it answers 501 while the others serve.
   */
  onFinding?: (finding: Finding) => void;
  /**
   * Compile every request schema at start-up, so that an operation whose schema Ajv cannot
   * compile is reported (onFinding) and answers 501 before any request (default true). With
   * false, each schema is compiled on the operation's first request (a large description starts
   * in seconds) and such an operation answers 501 from then on; so does an operation whose path
   * the router refuses, found when its method is first asked for (each method's routes are
   * routed then). With 'background', as false, and once the server listens the methods and routes
   * not yet asked for are routed and compiled one at a time between requests, so that every
   * finding is reported without a request.
   */
  compileAtStart?: boolean | 'background';
  /**
   * The body of an error the server produces itself for an operation without an envelope (see
   * errors.ts `errorAnswer`): the mock answers with the declared response's example or sample.
   */
  describeError?: DescribeError;
}

export const DEFAULT_LIMITS = { bodyBytes: 1 << 20, fileBytes: 10 << 20, files: 10 } as const;

/** The message of a server set up without a way to check keys. */
export const NO_KEY_SOURCE =
  'no key source: pass verifyKey (a function), keys (the accepted keys, or sha256:<hex> of each), ' +
  'or insecureAnyKey: true (local work only: any key is accepted)';

/** The verifier the options give, or undefined for "any key"; throws when none is given. */
function keyVerifier(options: ServiceOptions): VerifyKey | undefined {
  if (options.verifyKey) return options.verifyKey;
  if (options.keys) return keysVerifier(options.keys);
  if (options.insecureAnyKey === true) return undefined;
  if (!options.model.operations.some((op) => op.auth.transports.length > 0)) return undefined;
  throw new Error(`registerService: ${NO_KEY_SOURCE}`);
}

export async function registerService(
  app: FastifyInstance,
  options: ServiceOptions,
): Promise<void> {
  const { model } = options;
  const verify = keyVerifier(options);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const matcher = createPathMatcher(model);
  const validators = validatorsFor(model);

  app.setValidatorCompiler(validatorCompiler(model));
  await installParsers(app, model, limits);
  const compileAtStart = options.compileAtStart === undefined || options.compileAtStart === true;
  const later: (() => Promise<void>)[] = [];
  const guard = createRouteGuard(model);
  // Schemas compiled on a route's first request: one that cannot be is a located 501 from then on.
  const compileOnFirstUse = (op: Operation, schema: () => RouteSchemas) => {
    let problem: string | undefined | null = null;
    return async () => {
      if (problem === null) {
        problem = guard.compile(schema());
        if (problem !== undefined) options.onFinding?.(unservableFinding(model, op, problem));
      }
      if (problem !== undefined) throw notServed(op, problem);
    };
  };
  const { owner } = sharedRoutes(model);
  const rewritten = rewrittenOperations(model);
  const unservable = new Map<Operation, string>();
  const notFound = installAnswers(app, model, matcher, defaultEnvelopeOp(model), {
    unservable,
    ...(options.describeError ? { describeError: options.describeError } : {}),
  });

  // Behaviours first: each adds its hooks to every operation route, in this order. The
  // deprecation headers come first, so that every answer of the operation carries them.
  installDeprecationHeaders(app, model);
  installRequestChecks(app, model, options.onOperationRequest);
  installAuth(app, verify);
  if (options.rateLimit !== false) {
    await installRateLimits(app, typeof options.rateLimit === 'object' ? options.rateLimit : {});
  }
  installParamDecoding(app, model);

  // A GET's route answers HEAD too (headOnSend), as Fastify's automatic HEAD route would, but
  // without a second route. A path with an explicit HEAD operation keeps its GET to GET, so the
  // HEAD operation answers; without any, a HEAD request is routed as its GET.
  const explicitHead = new Set(
    model.operations.filter((o) => o.method === 'head').map((o) => routePathOf(model, o).url),
  );
  const dispatch = createDispatch(app, {
    compile: validatorCompiler(model) as never,
    bodyLimit: limits.bodyBytes,
    ...(owner.size > 0
      ? { constraints: { [OPERATION_CONSTRAINT]: operationStrategy(model) } }
      : {}),
    notFound,
    headAsGet: explicitHead.size === 0,
    // Without the start-up compile, each method's routes are routed when that method is first
    // asked for (or in the background): a path the router refuses is found then.
    lazy: !compileAtStart,
    onRefused: (route, error) => refuse(route.ctx.op, error),
  });
  const refuse = (op: Operation, error: unknown) => {
    const why = routeRefused(error);
    unservable.set(op, why);
    options.onFinding?.(unservableFinding(model, op, why));
  };
  const added: Operation[] = [];
  const addRoute = (op: Operation, preview: boolean) => {
    const route = routePathOf(model, op, preview && op.preview ? op.preview.path : op.path);
    let schema: RouteSchemas | undefined;
    const schemaOf = () => (schema ??= routeSchemas(model, op, route.params));
    // Shared method and route: the owner's route, this operation chosen per request; in a group
    // too large for constraints, an internal URL that the app's rewriteUrl sends its requests to.
    const internal = !preview && rewritten.has(op);
    const constraint = !preview && owner.has(op) && !internal ? op.id : undefined;
    const reason = compileAtStart ? guard.compile(schemaOf()) : undefined;
    if (reason !== undefined) {
      // Not routed: the not-found handler answers its requests with a located 501.
      unservable.set(op, reason);
      options.onFinding?.(unservableFinding(model, op, reason));
      return;
    }
    const ctx = routeContext(op, preview, matcher);
    const firstUse = compileAtStart ? undefined : compileOnFirstUse(op, schemaOf);
    if (firstUse && options.compileAtStart === 'background') later.push(firstUse);
    try {
      dispatch.add({
        ctx,
        method: op.method.toUpperCase(),
        url: internal ? internalUrl(op, route.url) : route.url,
        withHead: op.method === 'get' && !explicitHead.has(route.url),
        ...(constraint ? { constraint: { name: OPERATION_CONSTRAINT, value: constraint } } : {}),
        make: () => ({
          schema: schemaOf(),
          ...(firstUse ? { preValidation: firstUse } : {}),
          handler: routeHandler(model, ctx, options.handlers[op.id], validators, route.params),
        }),
      });
      added.push(op);
    } catch (error) {
      // A path the router refuses (it throws before it changes anything): this operation
      // answers 501, the others serve.
      refuse(op, error);
    }
  };
  for (const op of model.operations) {
    addRoute(op, false);
    if (op.preview && options.previews !== false) addRoute(op, true);
  }
  // A method Fastify does not serve: its operations answer 501, as their routes were refused.
  for (const [method, error] of dispatch.install()) {
    for (const op of new Set(added.filter((o) => o.method.toUpperCase() === method)))
      refuse(op, error);
  }
  // In the background, the trees no request has filled yet come first (their findings).
  if (options.compileAtStart === 'background')
    later.unshift(...dispatch.pending().map((method) => async () => dispatch.build(method)));
  // A route that cannot be compiled is reported by its first-use check, which then rejects.
  if (later.length > 0) afterListening(app, later, (compile) => compile().catch(() => undefined));
}
