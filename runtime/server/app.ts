/**
 * A production server around registerService (what `dataapi serve` runs): structured logs with
 * request ids and no keys, rate limits in Redis when a URL is given (shared by every instance),
 * /healthz and /readyz, the API reference at /docs, and a close() that lets in-flight requests
 * finish (Fastify stops accepting, answers 503 to new requests on open connections, then
 * closes the Redis connection).
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { ServiceModel } from 'dataapi/model';
import { MAX_PARAM_LENGTH } from './answers.ts';
import { rewriteOption } from './choose.ts';
import { installDocs } from './docs.ts';
import { errorBody } from './errors.ts';
import { installHealth } from './health.ts';
import { echoRequestId, serverLogOptions } from './logging.ts';
import { connectRedis, whenReady, type RedisConnection } from './redis.ts';
import { DEFAULT_LIMITS, registerService, type ServiceOptions } from './register.ts';

export interface ServiceAppOptions extends Omit<ServiceOptions, 'rateLimit'> {
  model: ServiceModel;
  /** Redis URL: rate limits are counted there, so they hold across instances. */
  redisUrl?: string;
  /** When Redis cannot answer: let requests through ('open', default) or answer 503 ('closed'). */
  onRedisError?: 'open' | 'closed';
  /** Rate limits on (default) or off. */
  rateLimit?: boolean;
  /** The OpenAPI document for /docs (absent: no /docs). */
  document?: Record<string, unknown>;
  /** Log level (default info; 'silent' for none). */
  logLevel?: string;
  /** Where logs go (default stdout). */
  logStream?: NodeJS.WritableStream;
  /** Milliseconds start-up waits for Redis before serving anyway, not ready (default 3000). */
  redisWaitMs?: number;
}

/**
 * While the server closes, answers end their connection: a keep-alive socket whose request
 * finished during shutdown would otherwise hold close() until the client lets it go.
 */
function closeWhenDraining(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
}

export interface ServiceApp {
  app: FastifyInstance;
  redis?: RedisConnection;
}

export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const { model } = options;
  const log = serverLogOptions(model, options.logLevel ?? 'info');
  const app = Fastify({
    ...log,
    logger:
      options.logStream && typeof log.logger === 'object'
        ? { ...log.logger, stream: options.logStream }
        : log.logger,
    bodyLimit: options.limits?.bodyBytes ?? DEFAULT_LIMITS.bodyBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Shared routes too large for the router's constraints (choose.ts).
    ...rewriteOption(model),
    // Idle keep-alive connections close at once on shutdown; busy ones finish their request.
    forceCloseConnections: 'idle',
    // A URL Fastify cannot route (bad percent-encoding) is the client's error.
    frameworkErrors: (error, _request, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      void (reply as unknown as FastifyReply)
        .code(status >= 400 && status < 500 ? status : 400)
        .type('application/json; charset=utf-8')
        .send(errorBody(model, undefined, 400, `Bad request: ${error.message}`));
    },
  });
  echoRequestId(app);
  closeWhenDraining(app);
  const redis = options.redisUrl ? connectRedis(options.redisUrl, app.log) : undefined;
  app.addHook('onClose', async () => redis?.close());
  if (redis && !(await whenReady(redis, options.redisWaitMs ?? 3000))) {
    app.log.warn(
      `Redis at ${redis.where} is not reachable yet: serving, rate limits fail ${options.onRedisError === 'closed' ? 'closed (503)' : 'open'} until it is; /readyz says not ready`,
    );
  }
  installHealth(app, redis ? { checks: { redis: () => redis.ping() } } : {});
  if (options.document) await installDocs(app, { document: options.document });
  const {
    redisUrl: _u,
    onRedisError,
    document: _d,
    logLevel: _l,
    logStream: _s,
    ...rest
  } = options;
  await registerService(app, {
    ...rest,
    rateLimit:
      options.rateLimit === false
        ? false
        : {
            ...(redis ? { redis: redis.client } : {}),
            ...(onRedisError ? { onStoreError: onRedisError } : {}),
          },
  });
  await app.ready();
  return { app, ...(redis ? { redis } : {}) };
}
