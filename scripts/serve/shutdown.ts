/**
 * Graceful shutdown of `dataapi serve`: on SIGTERM or SIGINT the server stops accepting, lets the
 * requests in flight finish (Fastify's close), then exits 0. Requests still running after the
 * timeout are abandoned (exit 1); a second signal stops at once.
 */
import type { FastifyInstance } from 'fastify';

export function stopOnSignals(app: FastifyInstance, timeoutMs: number): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        app.log.warn(`${signal} again: stopping without waiting`);
        process.exit(1);
      }
      stopping = true;
      app.log.info(`${signal}: finishing the requests in flight, then stopping`);
      const timer = setTimeout(() => {
        app.log.error(`requests still running after ${timeoutMs} ms: stopping anyway`);
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      app.close().then(
        () => {
          clearTimeout(timer);
          app.log.info('stopped');
          resolve(0);
        },
        (err: unknown) => {
          clearTimeout(timer);
          app.log.error({ err }, 'stopping failed');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
