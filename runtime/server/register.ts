/**
 * registerService: every operation of the model (and its preview variant) as a Fastify route,
 * interpreting the IR: Ajv request validation, the key per op.auth.transports, per-key rate
 * limits, content-type and size checks, multipart forms, and answers in the operation's envelope
 * with its group's business codes. Client errors are always 4xx, never 500.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Finding, Operation, ServiceModel } from 'dataapi/model';
import { OPERATION_CONSTRAINT, operationStrategy, sharedRoutes } from './choose.ts';
import { createRouteGuard, unservableFinding } from './guard.ts';
import { buildEnvelope, codeGroupOf } from 'dataapi/runtime/shared';
import { authenticate, readKey, type VerifyKey } from './auth.ts';
import { installAnswers } from './answers.ts';
import { CLOCK, DATE_MARK, DATE_MARK_JSON, nowIso } from './clock.ts';
import { defaultEnvelopeOp, HttpError, ServiceResult, type DescribeError } from './errors.ts';
import { installParsers, mediaEssence } from './parsers.ts';
import { formForValidation, readMultipart, type UploadedFile } from './multipart.ts';
import { createRateLimiter, type RateLimitOptions } from './rate-limit.ts';
import { createPathMatcher, toRoutePath } from './routes.ts';
import { isArraySchema, propertiesOf } from 'dataapi/model';
import { routeSchemas, validatorCompiler, validatorsFor } from './validation.ts';
import type { OperationInput } from './types.ts';

/** What every handler receives (typed per operation by the generated Handlers interface). */
export type HandlerInput = OperationInput<
  Record<string, unknown>,
  Record<string, unknown>,
  unknown
>;

export type Handler = (input: HandlerInput) => Promise<unknown>;

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
  /** Decides on a key; absent: any non-empty key is accepted. */
  verifyKey?: VerifyKey;
  /** Per-key, per-operation limits of op.rateLimit (default on). */
  rateLimit?: boolean | RateLimitOptions;
  limits?: Limits;
  /** Register the preview variants (default true). */
  previews?: boolean;
  /**
   * Runs first on every operation request, before the body is read (the mock's scenarios).
   * Throw an HttpError to answer with it.
   */
  onOperationRequest?: (request: FastifyRequest, ctx: RouteContext) => void;
  /**
   * Told about each operation that cannot be served (a schema Ajv cannot compile, a path the
   * router refuses): it answers 501 while the others serve.
   */
  onFinding?: (finding: Finding) => void;
  /**
   * The body of an error the server produces itself for an operation without an envelope (see
   * errors.ts `errorAnswer`): the mock answers with the declared response's example or sample.
   */
  describeError?: DescribeError;
}

/** Per-route facts, computed once at registration. */
export interface RouteContext {
  op: Operation;
  preview: boolean;
  /** The methods declared for this route's path (the Allow header of a 405). */
  allow: string;
}

export const DEFAULT_LIMITS = { bodyBytes: 1 << 20, fileBytes: 10 << 20, files: 10 } as const;

function accepts(declared: string, actual: string): boolean {
  const d = declared.toLowerCase();
  if (d === actual || d === '*/*') return true;
  if (d.endsWith('/*')) return actual.startsWith(d.slice(0, -1));
  return false;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/** A non-JSON payload as Fastify can send it (text, bytes or a stream; anything else as JSON). */
function asText(payload: unknown): unknown {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (typeof payload === 'object' && payload !== null && 'pipe' in payload) return payload;
  return payload === undefined ? '' : JSON.stringify(payload);
}

function successStatus(op: Operation): number {
  const n = Number(op.success?.status);
  return Number.isInteger(n) && n >= 200 && n < 300 ? n : 200;
}

export async function registerService(
  app: FastifyInstance,
  options: ServiceOptions,
): Promise<void> {
  const { model } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const limiter =
    options.rateLimit === false
      ? undefined
      : createRateLimiter(typeof options.rateLimit === 'object' ? options.rateLimit : {});
  const matcher = createPathMatcher(model);
  const envelopeOp = defaultEnvelopeOp(model);
  const validators = validatorsFor(model);
  const onOperationRequest = options.onOperationRequest;

  app.setValidatorCompiler(validatorCompiler(model));
  await installParsers(app, model, limits);
  const guard = createRouteGuard(model);
  const { owner } = sharedRoutes(model);
  if (!app.hasConstraintStrategy(OPERATION_CONSTRAINT))
    app.addConstraintStrategy(operationStrategy(model) as never);
  const unservable = new Map<Operation, string>();

  installAnswers(app, model, matcher, envelopeOp, {
    unservable,
    ...(options.describeError ? { describeError: options.describeError } : {}),
  });

  for (const op of model.operations) {
    addRoute(op, false);
    if (op.preview && options.previews !== false) addRoute(op, true);
  }

  function addRoute(op: Operation, preview: boolean): void {
    const route = toRoutePath(preview && op.preview ? op.preview.path : op.path);
    const schema = routeSchemas(op, route.params);
    // Shared method and route: the owner's route, this operation chosen per request.
    const constraint = !preview && owner.has(op) ? op.id : undefined;
    const reason = guard.check(op, op.method.toUpperCase(), route.url, schema, constraint);
    if (reason !== undefined) {
      // Not registered: the not-found handler answers its requests with a located 501.
      unservable.set(op, reason);
      options.onFinding?.(unservableFinding(model, op, reason));
      return;
    }
    const ctx: RouteContext = {
      op,
      preview,
      allow:
        matcher.match(preview && op.preview ? op.preview.path : op.path)?.methods.join(', ') ??
        op.method.toUpperCase(),
    };
    const handler = options.handlers[op.id];
    const group = codeGroupOf(model, op);
    const successCode = group?.successCode ?? 100;
    const successText =
      group?.codes.find((c) => c.code === successCode)?.meaning ??
      'The business operation succeeded';
    const status = successStatus(op);
    const responseType = op.success?.mediaType
      ? op.success.kind === 'json'
        ? `${op.success.mediaType}; charset=utf-8`
        : op.success.mediaType
      : 'application/json; charset=utf-8';
    const body = op.body;
    const bodyType = body ? mediaEssence(body.mediaType) : '';
    const multipartBody = body?.kind === 'multipart';
    const fileFields = body?.fileFields ?? [];
    const arrayFields = new Set(
      [...propertiesOf(model, body?.schema)]
        .filter(([, s]) => isArraySchema(model, s))
        .map(([k]) => k),
    );
    const formValidator =
      multipartBody && body ? validators.params.compile(body.schema) : undefined;
    const needsKey = !preview && op.auth.transports.length > 0;
    const optionalKey = needsKey && !op.auth.required;
    const aliases = [...route.params];
    const renamed = aliases.some(([a, n]) => a !== n);
    const bucketPrefix = `${op.id}${preview ? ':preview' : ''}\u0000`;

    const envelopeOf = (payload: unknown, explicit: ServiceResult | undefined, now: Date) => {
      const s = explicit?.status;
      return buildEnvelope(
        op,
        payload,
        {
          code: s?.code ?? successCode,
          description: s?.description ?? successText,
          ...(s?.totalCount !== undefined ? { totalCount: s.totalCount } : {}),
          ...(s?.extra ? { extra: s.extra } : {}),
        },
        now,
      );
    };
    /** Constant results of this route, serialised (split around the date). */
    const serialised = new WeakMap<ServiceResult, [string, string]>();
    /** The envelope text of a constant result, split around its date. */
    const envelopeParts = (explicit: ServiceResult): [string, string] => {
      const text = JSON.stringify(envelopeOf(explicit.payload, explicit, DATE_MARK));
      const at = text.indexOf(DATE_MARK_JSON);
      return [text.slice(0, at), text.slice(at + DATE_MARK_JSON.length)];
    };

    app.route({
      method: op.method.toUpperCase() as 'GET',
      url: route.url,
      bodyLimit: limits.bodyBytes,
      schema,
      ...(constraint ? { constraints: { [OPERATION_CONSTRAINT]: constraint } } : {}),
      config: { dataapi: ctx },
      onRequest: async (request) => {
        const url = request.raw.url;
        if (url !== undefined && url.includes('%')) {
          try {
            decodeURIComponent(url);
          } catch {
            throw new HttpError(400, 'Malformed percent-encoding or invalid UTF-8 in the URL', {
              outcome: 'invalid_parameters',
            });
          }
        }
        if (onOperationRequest) onOperationRequest(request, ctx);
        if (!body || !hasBody(request)) return;
        const coding = request.headers['content-encoding'];
        if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
          throw new HttpError(415, `Content-Encoding ${JSON.stringify(coding)} not accepted`, {
            outcome: 'invalid_parameters',
          });
        }
        const actual = mediaEssence(request.headers['content-type']);
        if (!accepts(bodyType, actual)) {
          throw new HttpError(
            415,
            `Content type ${JSON.stringify(actual || 'none')} not accepted; send ${body.mediaType}`,
            { outcome: 'invalid_parameters' },
          );
        }
      },
      preValidation: async (request) => {
        let key: string | undefined;
        if (needsKey) {
          if (optionalKey) {
            key = readKey(request, op.auth.transports);
            if (key !== undefined) key = await authenticate(request, op, options.verifyKey);
          } else key = await authenticate(request, op, options.verifyKey);
        }
        if (limiter) {
          const wait = limiter.take(bucketPrefix + (key ?? request.ip), op.rateLimit);
          if (wait > 0) {
            throw new HttpError(
              429,
              `Rate limit exceeded: ${op.rateLimit.limit} per ${op.rateLimit.per}`,
              {
                outcome: 'rate_limited',
                headers: { 'retry-after': String(wait) },
              },
            );
          }
        }
      },
      handler: async (request, reply) => {
        let requestBody: unknown = request.body;
        let files: UploadedFile[] | undefined;
        if (multipartBody) {
          if (request.isMultipart()) {
            const form = await readMultipart(request);
            files = form.files;
            const value = formForValidation(form, fileFields, arrayFields);
            if (formValidator && !formValidator(value)) {
              throw new HttpError(
                400,
                `body ${validators.params.ajv.errorsText(formValidator.errors, { dataVar: 'body' })}`,
                {
                  outcome: 'invalid_parameters',
                },
              );
            }
            for (const f of fileFields) delete value[f];
            requestBody = value;
          } else if (body?.required) {
            throw new HttpError(400, `body must be ${body.mediaType}`, {
              outcome: 'invalid_parameters',
            });
          }
        }
        if (!handler) {
          throw new HttpError(501, `Operation ${op.id} is not implemented`, {
            outcome: 'service_error',
          });
        }
        const params = request.params as Record<string, unknown>;
        let path = params;
        if (renamed) {
          path = {};
          for (const [alias, name] of aliases) path[name] = params[alias];
        }
        const input: HandlerInput = {
          query: request.query as Record<string, unknown>,
          path,
          headers: request.headers,
          body: requestBody,
          request,
          reply,
          op,
          preview,
        };
        if (files) input.files = files;
        if (needsKey) {
          const key = readKey(request, op.auth.transports);
          if (key !== undefined) input.key = key;
        }
        const result = await handler(input);
        if (reply.sent) return reply;
        const explicit = result instanceof ServiceResult ? result : undefined;
        const payload = explicit ? explicit.payload : result;
        if (explicit?.status.headers) reply.headers(explicit.status.headers);
        reply.code(explicit?.status.httpStatus ?? status);
        if (op.success?.kind === 'empty') return reply.send();
        reply.type(responseType);
        if (!op.envelope) {
          return reply.send(
            op.success?.kind === 'json' || !op.success
              ? JSON.stringify(payload ?? null)
              : asText(payload),
          );
        }
        if (explicit?.constant) {
          let parts = serialised.get(explicit);
          if (!parts) serialised.set(explicit, (parts = envelopeParts(explicit)));
          return reply.send(parts[0] + nowIso() + parts[1]);
        }
        return reply.send(JSON.stringify(envelopeOf(payload, explicit, CLOCK)));
      },
    });
  }
}
