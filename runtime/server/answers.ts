/**
 * Answers that belong to no handler: errors (HttpError, validation, parser and size errors) in
 * the operation's envelope with its group's code, and 404 versus 405 (with Allow) for requests
 * no route matched. Only a failure of the server itself is a 500, and it leaks nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { Operation, ServiceModel } from 'dataapi/model';
import { errorBody, HttpError, httpText } from './errors.ts';
import { contextOf } from './route-context.ts';
import { acceptedKey } from './route-auth.ts';
import { redact } from 'dataapi/runtime/shared';
import type { PathMatcher } from './routes.ts';

export function installAnswers(
  app: FastifyInstance,
  model: ServiceModel,
  matcher: PathMatcher,
  envelopeOp: Operation | undefined,
): void {
  app.setErrorHandler(
    (error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
      const op = contextOf(request)?.op;
      let status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      let message = error.message;
      if (error instanceof HttpError) {
        for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      } else if (status < 400 || status >= 500) {
        // Not a client error: never leak internals. The log has the error (without the key);
        // the answer only the request id to find it by.
        const secrets = [acceptedKey(request)];
        request.log.error(
          {
            error: {
              type: error.name,
              message: redact(String(error.message), secrets),
              stack: redact(String(error.stack), secrets),
            },
          },
          'handler failed',
        );
        status = 500;
        message = `${httpText(500)} (request id ${request.id})`;
      }
      if (status === 413 && !/large|limit/i.test(message)) message = httpText(413);
      reply
        .code(status)
        .type('application/json; charset=utf-8')
        .send(
          errorBody(model, op, status, message, {
            ...(error instanceof HttpError && error.outcome ? { outcome: error.outcome } : {}),
            ...(error instanceof HttpError && error.businessCode !== undefined
              ? { businessCode: error.businessCode }
              : {}),
            ...(envelopeOp ? { envelopeOp } : {}),
          }),
        );
    },
  );

  app.setNotFoundHandler((request, reply) => {
    const url = request.raw.url ?? '/';
    const q = url.indexOf('?');
    const hit = matcher.match(q < 0 ? url : url.slice(0, q));
    reply.type('application/json; charset=utf-8');
    if (hit) {
      reply
        .code(405)
        .header('allow', hit.methods.join(', '))
        .send(
          errorBody(
            model,
            hit.ops[0],
            405,
            `${request.method} is not allowed here; allowed: ${hit.methods.join(', ')}`,
          ),
        );
      return;
    }
    reply
      .code(404)
      .send(errorBody(model, undefined, 404, httpText(404), envelopeOp ? { envelopeOp } : {}));
  });
}
