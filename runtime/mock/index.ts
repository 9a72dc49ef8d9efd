/**
 * The mock server: the server runtime with handlers that answer from the spec (examples or
 * seeded samples), scenarios that produce every documented error on demand, and state for
 * uploads and asynchronous tasks. `createMock` returns a ready Fastify instance (not listening).
 *
 * Keys: the mock accepts the value of DATAAPI_APPKEY, or the documented default `mock-appkey`
 * (not a secret) when that is unset; any other key is a wrong key (401 with the group's
 * wrong-key code).
 *
 * `Prefer: business-code=N` answers HTTP 200 with N in the envelope (docs/service.md §1: a request the
 * gateway accepts is a 200 and the outcome is the body's code); combine it with `code=403`
 * to get that HTTP status with N instead.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Finding, ServiceModel } from 'dataapi/model';
import {
  declaredResponse,
  defaultEnvelopeOp,
  errorAnswer,
  HttpError,
  MAX_PARAM_LENGTH,
  registerService,
  rewriteOption,
  type Handler,
  type Limits,
  type RateLimitOptions,
  type RouteContext,
  afterListening,
} from 'dataapi/runtime/server';
import { buildCatalogue } from './catalogue.ts';
import { mockErrorDescriber } from './errors.ts';
import { DEFAULT_ANSWER_MS, installAnswerDeadline } from './deadline.ts';
import { installDeclaredHeaders } from './headers.ts';
import { createHandlers, SCENARIO } from './handlers.ts';
import { readScenario } from './scenarios.ts';

export { MockExampleError } from './catalogue.ts';
export { readScenario, type Scenario } from './scenarios.ts';

export const DEFAULT_MOCK_APPKEY = 'mock-appkey';

export interface MockOptions {
  /** Keys accepted (default: DATAAPI_APPKEY, or `mock-appkey` when that is unset). */
  appkeys?: string[];
  /** Per-key, per-operation rate limits of the spec (default on; false for load tests). */
  rateLimit?: boolean | RateLimitOptions;
  /** Fastify logger (default off). */
  logger?: boolean | Record<string, unknown>;
  /** Seed of schema-derived samples (default 1). */
  seed?: number;
  limits?: Limits;
  /**
   * An example that does not match its schema is answered with a schema sample under its name
   * ('sample', the default), left out ('skip') or stops the start ('error': strict mode for a
   * description whose examples must hold).
   */
  invalidExamples?: 'sample' | 'error' | 'skip';
  /** Told about each example replaced or left out (the finding's message). */
  onSkippedExample?: (message: string) => void;
  /**
   * Told about each finding of the mock: invalid examples, schemas Ajv cannot compile and
   * operations that cannot be routed (which answer 501 while the others serve).
   */
  onFinding?: (finding: Finding) => void;
  /** Handlers that replace the mock's own for some operations. */
  handlers?: Record<string, Handler | undefined>;
  /**
   * When examples are checked and schemas compiled: all at start-up ('start', the default), or
   * each operation's the first time it is asked for ('first-use': a description of a thousand
   * operations starts in seconds; its findings come with the first requests), or as 'first-use'
   * and, once the server listens, every operation not yet asked for in the background, one at a
   * time between requests ('background': the start of 'first-use', and every finding of 'start'
   * soon after it). Strict mode (`invalidExamples: 'error'`) always checks at start-up.
   */
  check?: 'start' | 'first-use' | 'background';
  /**
   * The longest the mock takes to answer (default 8000 ms, under the contract suite's 10 s): a
   * request still unanswered then gets a 503 in the operation's error shape, logged.
   */
  answerTimeoutMs?: number;
}

/** The key in DATAAPI_APPKEY, or the documented default `mock-appkey` when that is unset. */
export function mockAppkeys(options: Pick<MockOptions, 'appkeys'> = {}): string[] {
  if (options.appkeys) return options.appkeys;
  const env = process.env.DATAAPI_APPKEY;
  return env ? [env] : [DEFAULT_MOCK_APPKEY];
}

/** Reads the request's scenario; a forced error status is answered right away. */
function applyScenario(request: FastifyRequest, ctx: RouteContext): void {
  const query = request.query as Record<string, unknown> | undefined;
  const prefer = request.headers.prefer;
  if (
    prefer === undefined &&
    (query === undefined ||
      (query.__code === undefined &&
        query.__example === undefined &&
        query.__dynamic === undefined &&
        query.__business_code === undefined &&
        query.__seed === undefined))
  ) {
    return;
  }
  const scenario = readScenario(prefer, query);
  if (!scenario) return;
  (request as unknown as Record<symbol, unknown>)[SCENARIO] = scenario;
  if (scenario.badCode !== undefined) {
    throw new HttpError(
      422,
      `Prefer code=${JSON.stringify(scenario.badCode)}: a status code is three digits`,
      { outcome: 'invalid_parameters' },
    );
  }
  const code = scenario.code;
  if (code === undefined) return;
  // Prism's rule: the response declared for the status (or its range), else `default`, else 404.
  const declared = declaredResponse(ctx.op, code);
  if (!declared) {
    const statuses = ctx.op.responses.map((r) => r.status).join(', ');
    throw new HttpError(
      404,
      `Prefer code=${code}: ${ctx.op.id} declares no ${code} response and no default (declared: ${statuses})`,
      { outcome: 'invalid_parameters' },
    );
  }
  if (code < 400) {
    // The success response is the handler's usual answer; any other is answered as declared.
    if (declared !== ctx.op.success || String(code) !== declared.status)
      scenario.response = declared;
    return;
  }
  const headers: Record<string, string> = {};
  if (code === 429) headers['retry-after'] = '1';
  if (code === 405) headers.allow = ctx.allow;
  throw new HttpError(code, `Mock scenario: HTTP ${code}`, {
    headers,
    ...(scenario.businessCode !== undefined ? { businessCode: scenario.businessCode } : {}),
  });
}

export async function createMock(
  model: ServiceModel,
  options: MockOptions = {},
): Promise<FastifyInstance> {
  const catalogue = buildCatalogue(model, {
    seed: options.seed ?? 1,
    invalidExamples: options.invalidExamples ?? 'sample',
    ...(options.onSkippedExample ? { onSkip: options.onSkippedExample } : {}),
    ...(options.onFinding ? { onFinding: options.onFinding } : {}),
    ...(options.check ? { check: options.check } : {}),
  });
  const keys = new Set(mockAppkeys(options));
  const defaultEnvelope = defaultEnvelopeOp(model);
  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Shared routes too large for the router's constraints (runtime/server/choose.ts).
    ...rewriteOption(model),
    // A URL Fastify cannot route (bad percent-encoding) is the client's error.
    frameworkErrors: (error, _request, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      const answer = errorAnswer(model, undefined, 400, `Bad request: ${error.message}`, {
        ...(defaultEnvelope ? { envelopeOp: defaultEnvelope } : {}),
      });
      void (reply as unknown as FastifyReply)
        .code(status >= 400 && status < 500 ? status : 400)
        .type(answer.mediaType ?? 'application/problem+json')
        .send(JSON.stringify(answer.body));
    },
  });
  app.decorateRequest(SCENARIO as unknown as string, undefined);
  app.get('/__health', async () => ({ status: 'ok', operations: model.operations.length }));
  installDeclaredHeaders(app, model, options.seed ?? 1);
  installAnswerDeadline(app, options.answerTimeoutMs ?? DEFAULT_ANSWER_MS);
  await registerService(app, {
    model,
    handlers: { ...createHandlers(model, catalogue), ...options.handlers },
    // HTTP Basic: the key as `user:password`, or as either half of it.
    verifyKey: (key, _op, _request, transport) =>
      keys.has(key) ||
      (transport?.in === 'basic' &&
        (keys.has(key.slice(0, key.indexOf(':'))) || keys.has(key.slice(key.indexOf(':') + 1)))),
    rateLimit: options.rateLimit ?? true,
    ...(options.check === 'first-use' ? { compileAtStart: false } : {}),
    ...(options.check === 'background' ? { compileAtStart: 'background' as const } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    onOperationRequest: applyScenario,
    describeError: mockErrorDescriber(model, options.seed ?? 1),
    ...(options.onFinding ? { onFinding: options.onFinding } : {}),
  });
  if (options.check === 'background' && options.invalidExamples !== 'error')
    afterListening(app, model.operations, (op) => catalogue.get(op.id));
  await app.ready();
  return app;
}

/**
 * The mock's handlers on their own: every operation answers from the description's examples (or
 * seeded samples), uploads and asynchronous tasks keep state. For `dataapi serve --handlers` and
 * registerService (a file can `export default exampleHandlers(model)`).
 */
export function exampleHandlers(
  model: ServiceModel,
  options: Pick<MockOptions, 'seed' | 'invalidExamples'> = {},
): Record<string, Handler> {
  const catalogue = buildCatalogue(model, {
    seed: options.seed ?? 1,
    invalidExamples: options.invalidExamples ?? 'error',
  });
  return createHandlers(model, catalogue);
}

export interface StartOptions extends MockOptions {
  port?: number;
  host?: string;
}

/** Creates the mock and listens; resolves with the instance and its address. */
export async function startMock(
  model: ServiceModel,
  options: StartOptions = {},
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createMock(model, options);
  const url = await app.listen({ port: options.port ?? 4010, host: options.host ?? '127.0.0.1' });
  return { app, url };
}
