/** The embedded mock as a target: generated/mock started in-process on 127.0.0.1, ephemeral port. */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RunError } from './run-error.ts';

interface Listening {
  listen(o: { port: number; host: string }): Promise<string>;
  close(): Promise<unknown>;
  server: { address(): unknown };
}

export async function startEmbeddedMock(
  generatedDir: string,
  appkey: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const file = path.join(generatedDir, 'mock', 'index.ts');
  try {
    await access(file);
  } catch {
    throw new RunError(
      `no --base-url and no embedded mock (${path.relative(process.cwd(), file)} is missing): run \`dataapi generate\``,
      2,
    );
  }
  const mod = (await import(pathToFileURL(file).href)) as {
    createMockServer(options?: unknown): Listening | Promise<Listening>;
  };
  // The mock must refuse a wrong key for the auth checks: tell it which key is right.
  // An example that does not match its schema is a description warning (the suite lists it),
  // not a reason for the mock to refuse to start: it answers a schema sample instead.
  // Each operation's examples are checked (and left out when bad) when it is first asked for.
  const app = await mod.createMockServer({
    appkeys: [appkey],
    logger: false,
    invalidExamples: 'skip',
    check: 'first-use',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
    },
  };
}
