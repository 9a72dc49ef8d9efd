/**
 * A time bound on every answer of the mock: a request left unanswered past it (a handler or a
 * hook that never finishes, a body that never ends) gets a 503 in the operation's error shape
 * that says so, and the overrun is logged. A safety net, so that a client of the mock (the
 * contract suite) sees a status and never a timeout; the cause stays a bug to fix. No timer can
 * interrupt synchronous work that holds the event loop: the one a description can cause, a
 * `pattern` that backtracks without end, is run in linear time (model/safe-regexp.ts).
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from 'dataapi/runtime/server';

/** Below the contract suite's default per-request timeout (10 s): the suite sees the 503. */
export const DEFAULT_ANSWER_MS = 8000;

export function installAnswerDeadline(app: FastifyInstance, ms: number): void {
  const timers = new WeakMap<object, ReturnType<typeof setTimeout>>();
  const clear = (request: object) => {
    clearTimeout(timers.get(request));
    timers.delete(request);
  };
  // Not async: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const timer = setTimeout(() => {
      timers.delete(request);
      if (reply.sent) return;
      const message = `the mock did not answer ${request.method} ${request.url} within ${ms} ms`;
      request.log.error({ ms }, message);
      reply.send(
        new HttpError(503, `${message}: its handler or a hook never finished`, {
          outcome: 'service_error',
        }),
      );
    }, ms);
    timer.unref(); // an open request alone does not keep the process alive
    timers.set(request, timer);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    clear(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    clear(request);
    done();
  });
}
