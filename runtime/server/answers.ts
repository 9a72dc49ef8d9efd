/**
 * Answers that belong to no handler: errors (HttpError, validation, parser and size errors) in
 * the shape the operation declares (its envelope with its group's code for the service, else
 * RFC 9457 problem+json), and 404 versus 405 (with Allow) for requests no route matched; an
 * operation that cannot be served answers 501. Only a failure of the server itself is a 500, and
 * it leaks nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { concreteMedia, type Operation, type ServiceModel } from 'dataapi/model';
import {
  errorAnswer,
  HttpError,
  httpText,
  type DescribeError,
  type ErrorAnswer,
} from './errors.ts';
import { notServed } from './guard.ts';
import { longSegment } from './long-segment.ts';
import { answerFor, appendHook, contextOf, onOperationRoute } from './route-context.ts';
import { acceptedKey } from './route-auth.ts';
import { redact } from 'dataapi/runtime/shared';
import type { PathMatcher } from './routes.ts';

export interface AnswerOptions {
  /** Operations that cannot be served, with why: their requests are answered 501. */
  unservable?: Map<Operation, string>;
  describeError?: DescribeError;
}

/** What the handlers answer with: the model, the routes, and how to shape an error. */
interface AnswerContext {
  model: ServiceModel;
  matcher: PathMatcher;
  envelopeOp: Operation | undefined;
  options: AnswerOptions;
  describe: { describe?: DescribeError };
}

function send(reply: FastifyReply, status: number, answer: ErrorAnswer) {
  reply.code(status);
  if (answer.reason !== undefined) reply.header('x-dataapi-reason', headerText(answer.reason));
  if (answer.mediaType === undefined) return reply.send();
  reply.type(concreteMedia(answer.mediaType));
  return reply.send(
    /json/i.test(answer.mediaType) ? JSON.stringify(answer.body ?? null) : answer.body,
  );
}

/** A message as one header value: printable ASCII on one line, cut short. */
function headerText(message: string): string {
  const flat = message
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

type ServerError = Error & { statusCode?: number; validation?: unknown };

/**
 * A failure that is not a client error never leaks internals: the log has the error (without the
 * key), the answer only the request id to find it by.
 */
function logFailure(error: ServerError, request: FastifyRequest): string {
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
  return `${httpText(500)} (request id ${request.id})`;
}

function errorHandler(ctx: AnswerContext) {
  const { model, envelopeOp } = ctx;
  return (error: ServerError, request: FastifyRequest, reply: FastifyReply) => {
    const op = contextOf(request)?.op;
    let status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    let message = error.message;
    if (error instanceof HttpError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
    } else if (status < 400 || status >= 500) {
      status = 500;
      message = logFailure(error, request);
    }
    if (status === 413 && !/large|limit/i.test(message)) message = httpText(413);
    // The message may reach a header (ErrorAnswer.reason): never with the key in it.
    message = redact(message, [acceptedKey(request)]);
    void send(
      reply,
      status,
      errorAnswer(model, op, status, message, {
        ...(error instanceof HttpError && error.outcome ? { outcome: error.outcome } : {}),
        ...(error instanceof HttpError && error.businessCode !== undefined
          ? { businessCode: error.businessCode }
          : {}),
        ...(envelopeOp ? { envelopeOp } : {}),
        ...ctx.describe,
      }),
    );
  };
}

export { MAX_PARAM_LENGTH } from './long-segment.ts';

/**
 * No route matched: 501 for an operation that cannot be served, 400 or 414 for a path parameter the
 * router would not take, 405 with Allow, else 404.
 */
function notFoundHandler(ctx: AnswerContext) {
  const { model, matcher, envelopeOp, options, describe } = ctx;
  return (request: FastifyRequest, reply: FastifyReply) => {
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
    // The path and method are an operation's, but a segment is longer than the router takes:
    // "GET is not allowed; allowed: GET" said nothing true (corpus PayPal payouts).
    const path = q < 0 ? url : url.slice(0, q);
    const long = own ? longSegment(model, own, path) : undefined;
    if (own && long) {
      answerFor(request, [own]);
      // Past the parameter's own maxLength: refused for that, as validation would (long-segment.ts).
      const status = long.param === undefined ? 414 : 400;
      return send(reply, status, errorAnswer(model, own, status, long.message, describe));
    }
    if (hit) {
      answerFor(request, hit.ops);
      reply.header('allow', hit.methods.join(', '));
      const message = `${request.method} is not allowed here; allowed: ${hit.methods.join(', ')}`;
      // Shaped as an operation of the path that declares a 405 says it is, if one does.
      const shaper = hit.ops.find((o) => o.responses.some((r) => r.status === '405')) ?? hit.ops[0];
      return send(reply, 405, errorAnswer(model, shaper, 405, message, describe));
    }
    return send(
      reply,
      404,
      errorAnswer(model, undefined, 404, httpText(404), envelopeOp ? { envelopeOp } : {}),
    );
  };
}

/** Installs the error and not-found handlers; returns the not-found one (dispatch.ts asks it too). */
export function installAnswers(
  app: FastifyInstance,
  model: ServiceModel,
  matcher: PathMatcher,
  envelopeOp: Operation | undefined,
  options: AnswerOptions = {},
): (request: FastifyRequest, reply: FastifyReply) => unknown {
  const describe = options.describeError ? { describe: options.describeError } : {};
  const ctx: AnswerContext = { model, matcher, envelopeOp, options, describe };
  app.setErrorHandler(errorHandler(ctx));
  const notFound = notFoundHandler(ctx);
  app.setNotFoundHandler(notFound);
  // A path parameter's value is never empty (OpenAPI: path parameters are required): the router
  // lets `/flows/` match `/flows/{id}` with id "", which is no request of that template, but of
  // the path's own (405 when `/flows/` has other methods, else 404), as the not-found answer says.
  onOperationRoute(app, (routeOptions) => {
    if (!contextOf(routeOptions) || !routeOptions.url?.includes(':')) return;
    appendHook(routeOptions, 'onRequest', async (request, reply) => {
      const params = request.params as Record<string, string> | undefined;
      if (params && Object.values(params).some((v) => v === '')) {
        notFound(request, reply);
        return reply;
      }
      return undefined;
    });
  });
  return notFound;
}
