/**
 * Checks every operation request passes before its body is read (an `onRequest` hook attached by
 * an `onRoute` hook to the routes carrying `config.dataapi`): a URL that is not valid percent-
 * encoded UTF-8 is a 400; the caller's own first look (the mock's scenarios); a body in a content
 * coding or media type the operation does not take is a 415.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import { mediaEssence } from './parsers.ts';
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

function checkBodyType(request: FastifyRequest, ctx: RouteContext): void {
  const body = ctx.op.body;
  if (!body || !hasBody(request)) return;
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
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
  onOperationRequest: OnOperationRequest | undefined,
): void {
  onOperationRoute(app, (routeOptions) => {
    const ctx = contextOf(routeOptions);
    if (!ctx) return;
    // Not async: no promise per request (a throw is Fastify's error path as a rejection is).
    appendDoneHook(routeOptions, 'onRequest', (request, _reply, done) => {
      checkUrl(request);
      if (onOperationRequest) onOperationRequest(request, ctx);
      checkBodyType(request, ctx);
      done();
    });
  });
}
