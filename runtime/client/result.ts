/**
 * Reading an answer into what the caller gets: the payload with the envelope normalised to one
 * shape, or a DataApiError for an HTTP error, a body that is not JSON, or a business code other
 * than the group's success code (docs/service.md §5); a stream for server-sent events.
 */
import { codeGroupOf, excerpt, outcomeOf } from 'dataapi/model';
import { normalise } from './envelope.ts';
import { fail, httpFailure } from './failures.ts';
import type { ClientResult } from './options.ts';
import type { Sent } from './send.ts';
import { isJsonLike } from './serialize.ts';
import { readSse, type SseStream } from './sse.ts';

/** The body as JSON where it should be JSON (a 2xx that is not fails); '' is no body. */
function bodyOf(sent: Sent): unknown {
  const { response, t } = sent;
  let payload = sent.payload;
  if (typeof payload === 'string' && payload !== '' && isJsonLike(response, t.op)) {
    try {
      payload = JSON.parse(payload);
    } catch {
      if (response.ok)
        fail(sent, {
          httpStatus: response.status,
          outcome: 'invalid_response',
          causeMessage: 'the body is not JSON',
          body: excerpt(payload, 300),
        });
    }
  }
  return payload === '' ? undefined : payload;
}

/** Fails a 2xx whose envelope carries no business code, or one other than the success code. */
function checkBusinessCode(
  sent: Sent,
  code: number | undefined,
  payload: unknown,
  description?: string,
): void {
  const { session, t, response } = sent;
  const group = codeGroupOf(session.model, t.op);
  if (!group || !t.op.envelope) return;
  if (code === undefined)
    fail(sent, {
      httpStatus: response.status,
      outcome: 'invalid_response',
      causeMessage: `no business status code in ${t.op.envelope.statusKey}`,
      body: excerpt(payload, 300),
    });
  if (code === group.successCode) return;
  const { outcome, meaning } = outcomeOf(session.model, t.op, code);
  fail(sent, {
    httpStatus: response.status,
    businessCode: code,
    outcome: outcome ?? 'service_error',
    meaning: meaning ?? `code not declared in group ${group.name}`,
    ...(description !== undefined ? { description } : {}),
  });
}

export function readResult(sent: Sent): ClientResult {
  const { response, ctx, t } = sent;
  const payload = bodyOf(sent);
  if (!response.ok) httpFailure(sent, response, payload);
  const n = normalise(t.op, payload);
  checkBusinessCode(sent, n.status.code, payload, n.status.description);
  return {
    data: n.data,
    status: n.status,
    httpStatus: response.status,
    headers: response.headers,
    attempts: ctx.attempts,
  };
}

/** The event stream of a 2xx; an error answer (its body read as JSON where it is) fails. */
export function openStream(sent: Sent): SseStream {
  const { response } = sent;
  if (!response.ok) {
    let payload = sent.payload;
    if (typeof payload === 'string') {
      try {
        payload = JSON.parse(payload);
      } catch {
        // keep the text
      }
    }
    httpFailure(sent, response, payload);
  }
  return readSse(
    sent.payload as ReadableStream<Uint8Array> | null,
    response.status,
    response.headers,
  );
}
