/**
 * Start-up of the commands that run a server (`mock`, `serve`): build the app, then listen. A
 * build that fails is bad input (exit 2: a bad description, example or handler file), a port that
 * cannot be had is exit 1; either says so in one line and leaves nothing running.
 */
import type { FastifyInstance } from 'fastify';
import { UsageError } from './args.ts';

export type Started = { app: FastifyInstance; url: string } | { exitCode: number };

export async function buildAndListen(
  command: string,
  build: () => Promise<FastifyInstance>,
  at: { port: number; host: string },
): Promise<Started> {
  let app: FastifyInstance;
  try {
    app = await build();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    process.stderr.write(`dataapi ${command}: ${(err as Error).message}\n`);
    return { exitCode: 2 };
  }
  try {
    return { app, url: await app.listen(at) };
  } catch (err) {
    process.stderr.write(
      `dataapi ${command}: cannot listen on ${at.host}:${at.port}: ${(err as Error).message}\n`,
    );
    await app.close();
    return { exitCode: 1 };
  }
}
