/**
 * Checks every operation request passes before its body is read (an `onRequest` hook attached by
 * an `onRoute` hook to the routes carrying `config.dataapi`): a URL that is not valid percent-
 * encoded UTF-8 is a 400; the caller's own first look (the mock's scenarios); a body in a content
 * coding or media type the operation does not take is a 415.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Operation, ServiceModel } from 'dataapi/model';
import { HttpError } from './errors.ts';
import { mediaEssence } from './parsers.ts';
import { validatorsFor } from './validation.ts';
import { decodable, decodeBody, installBodyDecoding } from './content-coding.ts';
import { appendDoneHook, contextOf, onOperationRoute, type RouteContext } from './route-context.ts';

export type OnOperationRequest = (request: FastifyRequest, ctx: RouteContext) => void;

function accepts(declared: string, actual: string): boolean {
  if (declared === actual || declared === '*/*') return true;
  if (!declared.includes('*')) return false;
  // A media range: `*` stands for any run of characters inside the type or the subtype
  // (`application/*`, `application/*+json`).
  const glob = declared
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${glob}$`).test(actual);
}

/** Whether the request carries a body (a length above 0, or a chunked one). */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

function checkUrl(request: FastifyRequest): void {
  const url = request.raw.url;
  if (url === undefined || !url.includes('%')) return;
  try {
    decodeURIComponent(url);
  } catch {
    throw new HttpError(400, 'Malformed percent-encoding or invalid UTF-8 in the URL', {
      outcome: 'invalid_parameters',
    });
  }
}

/**
 * What the operation's `Content-Encoding` header parameter says of a coding: undefined when it
 * declares none. A value its schema refuses is left to the header validation, a 400 in the
 * operation's error shape like any other header's (Apify: `enum: [br, gzip, deflate, identity]`;
 * a 415 answered a value outside it); a value it takes is decoded (content-coding.ts).
 */
function declaredTakes(model: ServiceModel, op: Operation, coding: string): boolean | undefined {
  let check = declared.get(op);
  if (check === undefined) {
    const p = op.parameters.header.find((h) => h.name.toLowerCase() === 'content-encoding');
    const fn = p ? validatorsFor(model).params.compileFor(p.schema, 'parameter') : undefined;
    check = fn ? (v: string) => fn(v) : null;
    declared.set(op, check);
  }
  return check === null ? undefined : check(coding);
}
const declared = new WeakMap<Operation, ((value: string) => boolean) | null>();

function checkBodyType(request: FastifyRequest, ctx: RouteContext, model: ServiceModel): void {
  const body = ctx.op.body;
  if (!body || !hasBody(request)) return;
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    const takes = declaredTakes(model, ctx.op, coding);
    // false: the header validation refuses it, as it refuses any header (a 400).
    if (takes === true && decodable(coding)) decodeBody(request, coding);
    else if (takes !== false)
      throw new HttpError(415, `Content-Encoding ${JSON.stringify(coding)} not accepted`, {
        outcome: 'invalid_parameters',
      });
  }
  const actual = mediaEssence(request.headers['content-type']);
  if (!accepts(ctx.bodyType, actual)) {
    throw new HttpError(
      415,
      `Content type ${JSON.stringify(actual || 'none')} not accepted; send ${body.mediaType}`,
      { outcome: 'invalid_parameters' },
    );
  }
}

/** Adds the checks to every operation route registered after this call. */
export function installRequestChecks(
  app: FastifyInstance,
  model: ServiceModel,
  onOperationRequest: OnOperationRequest | undefined,
): void {
  installBodyDecoding(app);
  onOperationRoute(app, (routeOptions) => {
    const ctx = contextOf(routeOptions);
    if (!ctx) return;
    // Not async: no promise per request (a throw is Fastify's error path as a rejection is).
    appendDoneHook(routeOptions, 'onRequest', (request, _reply, done) => {
      checkUrl(request);
      if (onOperationRequest) onOperationRequest(request, ctx);
      checkBodyType(request, ctx, model);
      done();
    });
  });
}
