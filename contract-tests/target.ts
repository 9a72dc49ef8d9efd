/** The embedded mock as a target: the generated tree's mock started in-process on 127.0.0.1, ephemeral port. */
import type { ServiceModel } from 'dataapi/model';
import { MissingModelError, readModelFile } from '../runtime/shared/model-file.ts';
import { RunError } from './run-error.ts';

export async function startEmbeddedMock(
  generatedDir: string,
  appkey: string,
  /** The run's model when it has read it already (the mock only reads it; one copy, one Ajv). */
  given?: ServiceModel,
): Promise<{ url: string; close: () => Promise<void>; model: ServiceModel }> {
  // The model, not generated/mock/index.ts: plain Node cannot import the generated TypeScript,
  // and that file only hands the same model to the same createMock.
  const model =
    given ??
    (await readModelFile(generatedDir).catch((err: unknown) => {
      if (err instanceof MissingModelError)
        throw new RunError(`no --base-url and no embedded mock (${err.message})`, 2);
      throw err;
    }));
  // The mock must refuse a wrong key for the auth checks: tell it which key is right.
  // An example that does not match its schema is a description warning (the suite lists it),
  // not a reason for the mock to refuse to start: it answers a schema sample instead.
  // Each operation's examples are checked (and left out when bad) when it is first asked for.
  // Loaded here, not with the runner: a run against --base-url has no use for the mock's Fastify.
  const { createMock } = await import('dataapi/runtime/mock');
  // The mock lives as long as the run and answers each operation a few times.
  (await import('dataapi/runtime/shared')).compileForFewValidations();
  const app = await createMock(model, {
    appkeys: [appkey],
    logger: false,
    invalidExamples: 'skip',
    check: 'first-use',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    model,
    close: async () => {
      await app.close();
    },
  };
}
