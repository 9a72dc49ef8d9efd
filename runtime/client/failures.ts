/**
 * Turning what went wrong in a call into the one DataApiError: a transport failure (timeout,
 * abort, network), an HTTP error answer, or a business failure inside a 200.
 */
import { excerpt, outcomeOf } from 'dataapi/model';
import { normalise } from './envelope.ts';
import { DataApiError, outcomeOfHttpStatus, type DataApiErrorInit } from './errors.ts';
import type { Session, Target } from './session.ts';
import { timedOut, type CallContext } from './transport.ts';

/** Where a call stands when it fails. */
export interface CallPlace {
  session: Session;
  t: Target;
  ctx: CallContext;
  /** The URL sent (the last attempt's). */
  url: string;
}

export function fail(place: CallPlace, init: Partial<DataApiErrorInit>): never {
  const { t, ctx } = place;
  throw new DataApiError(
    {
      operation: t.id,
      method: t.op.method,
      url: place.url,
      outcome: 'http_error',
      attempts: ctx.attempts,
      ...(ctx.lastRetryAfterMs !== undefined ? { retryAfterMs: ctx.lastRetryAfterMs } : {}),
      ...init,
    },
    place.session.secrets,
  );
}

/** A request that got no answer: timed out, aborted by the caller, or a network failure. */
export function transportFailure(place: CallPlace, error: unknown, signal?: AbortSignal): never {
  if (error instanceof DataApiError) throw error;
  const cause =
    error instanceof Error
      ? error.cause instanceof Error
        ? `${error.message}: ${error.cause.message}`
        : error.message
      : String(error);
  if (timedOut(place.ctx))
    fail(place, {
      outcome: 'timeout',
      causeMessage: `no complete response within ${place.ctx.timeoutMs} ms`,
    });
  if (signal?.aborted) fail(place, { outcome: 'aborted', causeMessage: cause });
  fail(place, { outcome: 'network_error', causeMessage: cause });
}

/** An answer outside 2xx: the business code's outcome when the body has one, else the status's. */
export function httpFailure(place: CallPlace, response: Response, payload: unknown): never {
  const { session, t } = place;
  const n = normalise(t.op, payload);
  const code = n.status.code;
  const { outcome, meaning } = outcomeOf(session.model, t.op, code);
  fail(place, {
    httpStatus: response.status,
    outcome: outcome && outcome !== 'ok' ? outcome : outcomeOfHttpStatus(response.status),
    ...(code !== undefined ? { businessCode: code } : {}),
    ...(meaning !== undefined ? { meaning } : {}),
    ...(n.status.description !== undefined ? { description: n.status.description } : {}),
    ...(payload !== undefined && payload !== '' ? { body: excerpt(payload, 300) } : {}),
  });
}
