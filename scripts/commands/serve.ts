/**
 * `dataapi serve`: the service on the generated stubs and the integrator's handlers, as it runs in
 * production (keys required, limits shared through Redis, health probes, /docs, graceful
 * shutdown). The server itself is runtime/server/app.ts; this parses flags and picks key sources.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { buildAndListen, portOf } from '../listen.ts';
import { readGeneratedModel } from '../generated-model.ts';
import type { Handler, VerifyKey } from '../../runtime/server/index.ts';
import { resolveKeys, INSECURE_BANNER } from '../serve/keys.ts';
import { stopOnSignals } from '../serve/shutdown.ts';

const usage = `Usage: dataapi serve [--port 8080] [--host 127.0.0.1] [--handlers DIR] [--keys-file FILE] [--redis URL]

Runs the service on the generated stubs (generated/server) with your handlers. Operations without
a handler answer 501 in their envelope (with --example-handlers: from the description's examples);
keys and rate limits apply to every operation.

  --port N              port to listen on (0: any free port)        default: $PORT or 8080
  --host HOST           address to listen on (0.0.0.0 in a container) default: 127.0.0.1
  --handlers DIR        handler files (*.ts, *.js), each exporting handlers named by operation id
                                                                    default: handlers
  --example-handlers    operations without a handler answer from the description's examples
                        (as the mock does): a stand-in for staging and contract runs
  --keys-file FILE      accepted keys, one per line: the key, or sha256:<64 hex> of it
  --insecure-any-key    accept ANY non-empty key (local work only; never in production)
  --redis URL           count rate limits in Redis (shared by every instance)
                                                                    default: $REDIS_URL
  --redis-failure MODE  when Redis is unreachable: open (let requests through) or closed (503)
                                                                    default: open
  --spec FILE           the description shown at /docs              default: spec/openapi.yaml
  --no-docs             do not serve /docs
  --dir DIR             the generated tree                          default: generated
  --log-level LEVEL     fatal, error, warn, info, debug, trace or silent   default: info
  --shutdown-timeout MS on SIGTERM, how long in-flight requests may take   default: 10000

Keys (one source is required): --keys-file FILE, or DATAAPI_KEYS=key1,key2 (same formats),
or --insecure-any-key. Hash a key with: printf %s "$KEY" | sha256sum
Probes: GET /healthz (alive), GET /readyz (ready: Redis reachable). Logs: JSON on stdout.
Exit codes: 0 stopped cleanly, 1 could not listen or stop, 2 bad input (flags, keys, handlers).`;

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

async function loadDocument(
  spec: string,
  explicit: boolean,
): Promise<Record<string, unknown> | undefined> {
  if (!existsSync(spec)) {
    if (explicit) throw new UsageError(`--spec ${spec}: no such file`);
    return undefined;
  }
  const { loadSpec } = await import('../../generator/load.ts');
  return (await loadSpec(spec)).document;
}

async function loadHandlerDir(
  dir: string,
  explicit: boolean,
  model: ServiceModel,
): Promise<Record<string, Handler>> {
  if (!existsSync(dir)) {
    if (explicit)
      throw new UsageError(
        `--handlers ${dir}: no such folder. Create it with .ts files exporting handlers named by operationId (typed by Handlers from generated/server/index.ts; dataapi scaffold operation adds one per new operation), leave --handlers out, or use --example-handlers`,
      );
    return {};
  }
  const { loadHandlers } = await import('../../runtime/server/index.ts');
  return loadHandlers(dir, model);
}

/**
 * The mock's handlers (examples, seeded samples where an example does not fit its schema, uploads
 * and asynchronous tasks with state) for the operations without one of the integrator's.
 */
async function loadExampleHandlers(model: ServiceModel): Promise<Record<string, Handler>> {
  const { exampleHandlers } = await import('../../runtime/mock/index.ts');
  return exampleHandlers(model, { invalidExamples: 'sample' });
}

/** The flags, checked (bad input is a UsageError: exit 2). */
interface ServeOptions {
  port: number;
  host: string;
  handlersDir: string | undefined;
  exampleHandlers: boolean;
  keysFile: string | undefined;
  insecureAnyKey: boolean;
  redisUrl: string | undefined;
  failure: 'open' | 'closed';
  spec: string | undefined;
  docs: boolean;
  dir: string;
  level: string;
  shutdownMs: number;
}

type Keys = Awaited<ReturnType<typeof resolveKeys>>;

/** What the banner counts: operations, and how many are answered by which handlers. */
interface Counts {
  operations: number;
  handlers: number;
  examples: number;
}

function parseServeFlags(argv: string[]): ServeOptions {
  const { values } = parseFlags(
    argv,
    {
      port: { type: 'string', default: process.env.PORT ?? '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      handlers: { type: 'string' },
      'example-handlers': { type: 'boolean', default: false },
      'keys-file': { type: 'string' },
      'insecure-any-key': { type: 'boolean', default: false },
      redis: { type: 'string' },
      'redis-failure': { type: 'string', default: 'open' },
      spec: { type: 'string' },
      'no-docs': { type: 'boolean', default: false },
      dir: { type: 'string', default: 'generated' },
      'log-level': { type: 'string', default: 'info' },
      'shutdown-timeout': { type: 'string', default: '10000' },
    },
    usage,
  );
  const port = portOf(values.port as string);
  const failure = values['redis-failure'] as string;
  if (failure !== 'open' && failure !== 'closed') {
    throw new UsageError(`--redis-failure must be open or closed, got ${JSON.stringify(failure)}`);
  }
  const level = values['log-level'] as string;
  if (!LEVELS.has(level))
    throw new UsageError(`--log-level must be one of ${[...LEVELS].join(', ')}`);
  const shutdownMs = Number(values['shutdown-timeout']);
  if (!Number.isInteger(shutdownMs) || shutdownMs < 0) {
    throw new UsageError('--shutdown-timeout must be a whole number of milliseconds');
  }
  return {
    port,
    host: values.host as string,
    handlersDir: values.handlers as string | undefined,
    exampleHandlers: values['example-handlers'] === true,
    keysFile: values['keys-file'] as string | undefined,
    insecureAnyKey: values['insecure-any-key'] === true,
    redisUrl: values.redis as string | undefined,
    failure,
    spec: values.spec as string | undefined,
    docs: values['no-docs'] !== true,
    dir: values.dir as string,
    level,
    shutdownMs,
  };
}

/** --redis, else $REDIS_URL: a redis:// or rediss:// URL. */
function redisUrlOf(o: ServeOptions): string | undefined {
  const redisUrl = o.redisUrl ?? (process.env.REDIS_URL || undefined);
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new UsageError('--redis (or REDIS_URL) must be a redis:// or rediss:// URL');
  }
  return redisUrl;
}

/** The integrator's handlers, then (--example-handlers) the mock's for the operations left. */
async function collectHandlers(
  o: ServeOptions,
  model: ServiceModel,
  counts: Counts,
): Promise<Record<string, Handler>> {
  const handlers = await loadHandlerDir(
    o.handlersDir ?? 'handlers',
    o.handlersDir !== undefined,
    model,
  );
  counts.handlers = Object.keys(handlers).length;
  if (o.exampleHandlers) {
    const examples = await loadExampleHandlers(model);
    for (const [id, handler] of Object.entries(examples))
      if (!(id in handlers)) {
        handlers[id] = handler;
        counts.examples++;
      }
  }
  return handlers;
}

/** The service app on the generated model, the handlers, the keys, Redis and /docs. */
async function buildServeApp(
  o: ServeOptions,
  keys: Keys,
  redisUrl: string | undefined,
  counts: Counts,
) {
  const model = await readGeneratedModel(o.dir, 'server stubs');
  counts.operations = model.operations.length;
  const handlers = await collectHandlers(o, model, counts);
  const document = o.docs
    ? await loadDocument(o.spec ?? 'spec/openapi.yaml', o.spec !== undefined)
    : undefined;
  if (keys.mode === 'any') process.stderr.write(INSECURE_BANNER);
  const { createServiceApp } = await import('../../runtime/server/app.ts');
  const { app } = await createServiceApp({
    model,
    handlers,
    ...(keys.mode === 'any' ? { insecureAnyKey: true } : { verifyKey: keys.verify as VerifyKey }),
    ...(redisUrl ? { redisUrl } : {}),
    onRedisError: o.failure,
    ...(document ? { document } : {}),
    logLevel: o.level,
  });
  if (keys.mode === 'any') app.log.warn('--insecure-any-key: any non-empty key is accepted');
  return app;
}

/** What is listening, and how: printed once the server is up. */
function banner(
  url: string,
  counts: Counts,
  keys: Keys,
  rate: { redisUrl: string | undefined; failure: string },
  hasDocs: boolean,
): string {
  const { operations, handlers, examples } = counts;
  return (
    `dataapi serve: listening on ${url}\n` +
    `  operations: ${operations} (${handlers} with a handler${examples ? `, ${examples} answered from the description's examples` : ''}${handlers + examples < operations ? '; the others answer 501' : ''})\n` +
    `  keys: ${keys.describe}\n` +
    `  rate limits: ${rate.redisUrl ? `Redis (failure: ${rate.failure})` : 'in this process only'}\n` +
    `  health: ${url}/healthz, ${url}/readyz${hasDocs ? `; docs: ${url}/docs` : ''}\n`
  );
}

async function run(argv: string[]): Promise<number> {
  const o = parseServeFlags(argv);
  const keys = await resolveKeys({
    ...(o.keysFile !== undefined ? { keysFile: o.keysFile } : {}),
    insecureAnyKey: o.insecureAnyKey,
    env: process.env,
  });
  const redisUrl = redisUrlOf(o);
  const counts: Counts = { operations: 0, handlers: 0, examples: 0 };
  const started = await buildAndListen('serve', () => buildServeApp(o, keys, redisUrl, counts), {
    port: o.port,
    host: o.host,
  });
  if ('exitCode' in started) return started.exitCode;
  const { app, url } = started;
  const hasDocs = app.hasRoute({ method: 'GET', url: '/docs' });
  process.stderr.write(banner(url, counts, keys, { redisUrl, failure: o.failure }, hasDocs));
  return stopOnSignals(app, o.shutdownMs);
}

export const command: Command = {
  usage,
  run: (argv) => guard(() => run(argv)),
};
