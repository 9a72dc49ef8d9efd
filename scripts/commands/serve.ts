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
import { buildAndListen } from '../listen.ts';
import { checkValue } from '../flags/values.ts';
import { readGeneratedModel } from '../generated-model.ts';
import type { Handler, VerifyKey } from '../../runtime/server/index.ts';
import { resolveKeys, INSECURE_BANNER } from '../serve/keys.ts';
import { stopOnSignals } from '../serve/shutdown.ts';
import { SERVE_FLAGS } from '../flags/serve.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi serve [--port 8080] [--host 127.0.0.1] [--handlers DIR] [--keys-file FILE] [--redis URL]

Runs the service on the generated stubs (generated/server) with your handlers. Operations without
a handler answer 501 in their envelope (with --example-handlers: from the description's examples);
keys and rate limits apply to every operation.

${flagLines(SERVE_FLAGS)}

Keys (one source is required): --keys-file FILE, or DATAAPI_KEYS=key1,key2 (same formats),
or --insecure-any-key. Hash a key with: printf %s "$KEY" | sha256sum
Probes: GET /healthz (alive), GET /readyz (ready: Redis reachable). Logs: JSON on stdout.
Exit codes: 0 stopped cleanly, 1 could not listen or stop, 2 bad input (flags, keys, handlers).`;

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
  const { values } = parseFlags(argv, SERVE_FLAGS, usage);
  const port = Number(values.port);
  const failure = values['redis-failure'];
  const level = values['log-level'];
  const shutdownMs = Number(values['shutdown-timeout']);
  return {
    port,
    host: values.host,
    handlersDir: values.handlers,
    exampleHandlers: values['example-handlers'],
    keysFile: values['keys-file'],
    insecureAnyKey: values['insecure-any-key'],
    redisUrl: values.redis,
    failure,
    spec: values.spec,
    docs: !values['no-docs'],
    dir: values.dir,
    level,
    shutdownMs,
  };
}

/** --redis, else $REDIS_URL: a redis:// or rediss:// URL. */
function redisUrlOf(o: ServeOptions): string | undefined {
  if (o.redisUrl !== undefined) return o.redisUrl; // checked as --redis (its kind)
  const fromEnv = process.env.REDIS_URL || undefined;
  checkValue('REDIS_URL', SERVE_FLAGS.redis, fromEnv);
  return fromEnv;
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
