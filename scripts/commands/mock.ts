/** `dataapi mock`: serve the mock of the generated service (or of any spec) until SIGINT/SIGTERM. */
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from '../command.ts';
import { configuredSpec } from '../config/active.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { buildAndListen, portOf } from '../listen.ts';
import { readGeneratedModel } from '../generated-model.ts';
import { REDACTED } from '../../runtime/shared/index.ts';
import type { MockOptions } from '../../runtime/mock/index.ts';

const usage = `Usage: dataapi mock [--port 4010] [--host 127.0.0.1] [--no-rate-limit] [--spec FILE | --dir generated]

  --port N          port to listen on (0: any free port)            default: 4010
  --host HOST       address to listen on                            default: 127.0.0.1
  --no-rate-limit   do not enforce the operations' rate limits
  --dir DIR         the generated tree whose mock to serve          default: generated
  --spec FILE       serve a mock of this OpenAPI file instead (no generate needed)
  --seed N          seed of schema-derived samples                  default: 1
  --skip-invalid-examples
                    leave out examples that do not match their schema (with a warning)
                    instead of answering them with a schema sample (the default)
  --strict-examples refuse to start when an example does not match its schema
                    (otherwise each operation's examples are checked, and warned
                    about, when it is first asked for or in the background soon
                    after the mock listens)

Key: the mock accepts the value of DATAAPI_APPKEY, or \`mock-appkey\` when that is unset.
Scenarios: Prefer: code=429 | example=NAME | dynamic=true | business-code=N (or __code=...
in the query). code=N answers the response declared for N, else the default response, else 404;
a code that is not three digits is a 422. GET /__health answers when the mock is ready.

Exit codes: 0 stopped cleanly (SIGINT/SIGTERM), 1 could not listen, 2 bad input (spec, flags).`;

type Create = (options: MockOptions) => Promise<FastifyInstance>;

async function loadCreate(given: string | undefined, dir: string): Promise<Create> {
  // No --spec and no generated tree: the configuration file's description.
  const spec = given ?? (existsSync(path.join(dir, 'model.json')) ? undefined : configuredSpec());
  if (spec !== undefined) {
    // The description's model as the last start made it, when nothing it is made of changed.
    // Its files are read while the mock's modules load.
    const [model, { createMock }] = await Promise.all([
      import('../spec-model.ts').then(({ specModel }) => specModel(spec)),
      import('../../runtime/mock/index.ts'),
    ]);
    return (options) => createMock(model, options);
  }
  const [{ createMock }, model] = await Promise.all([
    import('../../runtime/mock/index.ts'),
    readGeneratedModel(dir, 'mock'),
  ]);
  return (options) => createMock(model, options);
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(
        argv,
        {
          port: { type: 'string', default: '4010' },
          host: { type: 'string', default: '127.0.0.1' },
          'rate-limit': { type: 'boolean', default: true },
          'no-rate-limit': { type: 'boolean', default: false },
          dir: { type: 'string', default: 'generated' },
          spec: { type: 'string' },
          seed: { type: 'string', default: '1' },
          'skip-invalid-examples': { type: 'boolean', default: false },
          'strict-examples': { type: 'boolean', default: false },
        },
        usage,
      );
      const port = portOf(values.port as string);
      const seed = Number(values.seed);
      if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer`);
      const rateLimit = values['no-rate-limit'] !== true && values['rate-limit'] !== false;
      const started = await buildAndListen(
        'mock',
        async () => {
          const create = await loadCreate(values.spec as string | undefined, values.dir as string);
          return create({
            rateLimit,
            seed,
            // Each operation's examples are checked when it is first asked for, and the rest in
            // the background once it listens: a description of a thousand operations starts in
            // seconds and still reports every finding (strict mode checks all of them first).
            check: 'background',
            invalidExamples:
              values['strict-examples'] === true
                ? 'error'
                : values['skip-invalid-examples'] === true
                  ? 'skip'
                  : 'sample',
            onFinding: (f) =>
              process.stderr.write(
                `warning: ${f.file || 'description'} at #${f.pointer}: ${f.message.replace(/^mock: /, '')}\n`,
              ),
          });
        },
        { port, host: values.host as string },
      );
      if ('exitCode' in started) return started.exitCode;
      const { app, url } = started;
      // The default key is documented and no secret; a key from the environment may be one.
      const env = process.env.DATAAPI_APPKEY;
      const key = env ? `${REDACTED} (from DATAAPI_APPKEY)` : 'mock-appkey';
      process.stdout.write(
        `dataapi mock: listening on ${url}\n  accepted key: ${key}\n  contract tests: ${env ? '' : 'DATAAPI_APPKEY=mock-appkey '}dataapi contract --base-url ${url} (without the key every keyed request is a 401)\n  rate limits: ${rateLimit ? 'on' : 'off'}\n  health: ${url}/__health\nPress Ctrl+C to stop.\n`,
      );
      return new Promise<number>((resolve) => {
        const stop = (signal: string) => {
          process.off('SIGINT', onInt);
          process.off('SIGTERM', onTerm);
          process.stdout.write(`dataapi mock: ${signal}, shutting down\n`);
          app.close().then(
            () => resolve(0),
            () => resolve(1),
          );
        };
        const onInt = () => stop('SIGINT');
        const onTerm = () => stop('SIGTERM');
        process.on('SIGINT', onInt);
        process.on('SIGTERM', onTerm);
      });
    }),
};
