/**
 * Sending one call: its request parts through openapi-fetch (URL, parameter and body
 * serialisation), paced, timed and retried by the call's fetch (transport.ts). Answers come back
 * as they are; a request that got no answer becomes a DataApiError here.
 */
import { transportFailure, type CallPlace } from './failures.ts';
import type { CallOptions, RequestInput } from './options.ts';
import { requestParts, type RequestParts } from './request-parts.ts';
import { retryPolicy } from './retry.ts';
import { bodySerializerFor, pathSerializerFor, querySerializerFor } from './serialize.ts';
import type { Session, Target } from './session.ts';
import { endAttempt, newCallContext, policyFetch, type CallContext } from './transport.ts';

/** What came back: the response and its body (text, or the stream with parseAs 'stream'). */
export interface Sent extends CallPlace {
  response: Response;
  payload: unknown;
}

function callContext(session: Session, t: Target, callOptions: CallOptions): CallContext {
  const { options } = session;
  const limiter = session.limiterFor(t);
  const ctx = newCallContext({
    ...(limiter ? { limiter } : {}),
    policy: retryPolicy(callOptions.retry ?? options.retry),
    retryable: false,
    timeoutMs: callOptions.timeoutMs ?? options.timeoutMs ?? 30_000,
    ...(callOptions.signal ? { signal: callOptions.signal } : {}),
  });
  ctx.retryable = !t.op.writes || ctx.policy.writes;
  return ctx;
}

/** openapi-fetch's request options for the parts of one call. */
function fetchInit(
  session: Session,
  t: Target,
  parts: RequestParts,
  callOptions: CallOptions,
  parseAs: 'text' | 'stream',
) {
  const { op } = t;
  const hasBody = parts.body !== undefined;
  return {
    params: { query: parts.query, path: parts.path, header: parts.header },
    ...(hasBody ? { body: parts.body, bodySerializer: bodySerializerFor(op, session.model) } : {}),
    querySerializer: querySerializerFor(op),
    pathSerializer: pathSerializerFor(op),
    parseAs,
    headers: {
      ...session.options.headers,
      ...callOptions.headers,
      ...(hasBody && op.body && op.body.kind !== 'multipart'
        ? { 'Content-Type': op.body.mediaType }
        : {}),
    },
  };
}

/** Sends a call of `t` (to `rawPath` below the base URL instead of its path, when given). */
export async function send(
  session: Session,
  t: Target,
  input: RequestInput,
  callOptions: CallOptions,
  parseAs: 'text' | 'stream',
  rawPath?: string,
): Promise<Sent> {
  const parts = await requestParts(t, input, session.options, callOptions);
  const path = rawPath ?? t.path;
  const place: CallPlace = {
    session,
    t,
    ctx: callContext(session, t, callOptions),
    url: `${session.options.baseUrl}${path}`,
  };
  session.deprecations.beforeCall(t.op);
  const fetch = policyFetch(async (request) => {
    place.url = request.url;
    return session.fetch(request);
  }, place.ctx);
  try {
    const init = { ...fetchInit(session, t, parts, callOptions, parseAs), fetch };
    const result = await session.http.request(t.op.method as 'get', path as never, init as never);
    const { response } = result as { response: Response };
    session.deprecations.afterCall(t.op, response.headers);
    const payload =
      (result as { data?: unknown; error?: unknown }).data ?? (result as { error?: unknown }).error;
    return { ...place, response, payload };
  } catch (error) {
    return transportFailure(place, error, callOptions.signal);
  } finally {
    // A text answer is whole here; a stream's timer goes on bounding the stream, as it did.
    if (parseAs === 'text') endAttempt(place.ctx);
  }
}
