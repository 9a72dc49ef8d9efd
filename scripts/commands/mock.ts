/** `dataapi mock`: serve the mock of the generated service (or of any spec) until SIGINT/SIGTERM. */
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from '../command.ts';
import { configuredSpec } from '../config/active.ts';
import { guard, parseFlags } from '../args.ts';
import { buildAndListen } from '../listen.ts';
import { readGeneratedModel } from '../generated-model.ts';
import { REDACTED } from '../../runtime/shared/index.ts';
import type { MockOptions } from '../../runtime/mock/index.ts';
import { MOCK_FLAGS } from '../flags/mock.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi mock [--port 4010] [--host 127.0.0.1] [--no-rate-limit] [--spec FILE | --dir generated]

${flagLines(MOCK_FLAGS)}

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
      const { values } = parseFlags(argv, MOCK_FLAGS, usage);
      const port = Number(values.port);
      const seed = Number(values.seed);
      const rateLimit = !values['no-rate-limit'];
      const started = await buildAndListen(
        'mock',
        async () => {
          const create = await loadCreate(values.spec, values.dir);
          return create({
            rateLimit,
            seed,
            // Each operation's examples are checked when it is first asked for, and the rest in
            // the background once it listens: a description of a thousand operations starts in
            // seconds and still reports every finding (strict mode checks all of them first).
            check: 'background',
            invalidExamples: values['strict-examples']
              ? 'error'
              : values['skip-invalid-examples']
                ? 'skip'
                : 'sample',
            onFinding: (f) =>
              process.stderr.write(
                `warning: ${f.file || 'description'} at #${f.pointer}: ${f.message.replace(/^mock: /, '')}\n`,
              ),
          });
        },
        { port, host: values.host },
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
