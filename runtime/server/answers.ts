/**
 * Answers that belong to no handler: errors (HttpError, validation, parser and size errors) in
 * the operation's envelope with its group's code, and 404 versus 405 (with Allow) for requests
 * no route matched. Only a failure of the server itself is a 500, and it leaks nothing.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Operation, ServiceModel } from 'dataapi/model';
import {
  errorAnswer,
  HttpError,
  httpText,
  type DescribeError,
  type ErrorAnswer,
} from './errors.ts';
import { notServed } from './guard.ts';
import type { RouteContext } from './register.ts';
import type { PathMatcher } from './routes.ts';

export interface AnswerOptions {
  /** Operations that cannot be served, with why: their requests are answered 501. */
  unservable?: Map<Operation, string>;
  describeError?: DescribeError;
}

export function installAnswers(
  app: FastifyInstance,
  model: ServiceModel,
  matcher: PathMatcher,
  envelopeOp: Operation | undefined,
  options: AnswerOptions = {},
): void {
  const describe = options.describeError ? { describe: options.describeError } : {};
  const send = (reply: FastifyReply, status: number, answer: ErrorAnswer) => {
    reply.code(status);
    if (answer.mediaType === undefined) return reply.send();
    reply.type(answer.mediaType);
    return reply.send(
      /json/i.test(answer.mediaType) ? JSON.stringify(answer.body ?? null) : answer.body,
    );
  };
  app.setErrorHandler(
    (error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
      const ctx = request.routeOptions.config as { dataapi?: RouteContext } | undefined;
      const op = ctx?.dataapi?.op;
      let status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      let message = error.message;
      if (error instanceof HttpError) {
        for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      } else if (status < 400 || status >= 500) {
        // Not a client error: never leak internals.
        request.log.error({ err: error }, 'handler failed');
        status = 500;
        message = httpText(500);
      }
      if (status === 413 && !/large|limit/i.test(message)) message = httpText(413);
      void send(
        reply,
        status,
        errorAnswer(model, op, status, message, {
          ...(error instanceof HttpError && error.outcome ? { outcome: error.outcome } : {}),
          ...(error instanceof HttpError && error.businessCode !== undefined
            ? { businessCode: error.businessCode }
            : {}),
          ...(envelopeOp ? { envelopeOp } : {}),
          ...describe,
        }),
      );
    },
  );

  app.setNotFoundHandler((request, reply) => {
    const url = request.raw.url ?? '/';
    const q = url.indexOf('?');
    const hit = matcher.match(q < 0 ? url : url.slice(0, q));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const own = hit?.ops.find((o) => o.method.toUpperCase() === method);
    const reason = own ? options.unservable?.get(own) : undefined;
    if (own && reason !== undefined) {
      const error = notServed(own, reason);
      return send(reply, 501, errorAnswer(model, own, 501, error.message, describe));
    }
    if (hit) {
      reply.header('allow', hit.methods.join(', '));
      const message = `${request.method} is not allowed here; allowed: ${hit.methods.join(', ')}`;
      return send(reply, 405, errorAnswer(model, hit.ops[0], 405, message, describe));
    }
    return send(
      reply,
      404,
      errorAnswer(model, undefined, 404, httpText(404), envelopeOp ? { envelopeOp } : {}),
    );
  });
}
