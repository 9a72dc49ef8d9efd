/**
 * The one error type the client throws: HTTP errors, business failures inside a 200, timeouts,
 * network failures and unreadable responses. It never holds the key: every text that could carry
 * it (URL, server message, body excerpt, cause) is redacted before it is stored.
 */
import { excerpt } from 'dataapi/model';
import type { Outcome } from '../../model/types.ts';
import { redactorFor } from '../shared/redact.ts';

/**
 * The canonical outcome of a failure: a business code group's outcome, or what the transport says
 * when there is no business code (a plain JSON operation, a 404, a timeout).
 */
export type ClientOutcome =
  | Outcome
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'http_error'
  | 'timeout'
  | 'network_error'
  | 'invalid_response'
  | 'aborted';

export interface DataApiErrorInit {
  /** The operation (or preview variant) id, e.g. `getAirQuality`. */
  operation: string;
  method: string;
  /** The URL of the request, with the key redacted. */
  url: string;
  outcome: ClientOutcome;
  httpStatus?: number;
  businessCode?: number;
  /** The business code's meaning in the operation's group. */
  meaning?: string;
  /** The status description the server sent. */
  description?: string;
  /** A short excerpt of the response body. */
  body?: string;
  /** How many requests were sent (retries included). */
  attempts: number;
  retryAfterMs?: number;
  /** A short description of the underlying error (network failures). */
  causeMessage?: string;
}

export class DataApiError extends Error implements DataApiErrorInit {
  override readonly name = 'DataApiError';
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly outcome: ClientOutcome;
  readonly httpStatus?: number;
  readonly businessCode?: number;
  readonly meaning?: string;
  readonly description?: string;
  readonly body?: string;
  readonly attempts: number;
  readonly retryAfterMs?: number;
  readonly causeMessage?: string;

  /** `secrets` are removed from every text field (the key and anything derived from it). */
  constructor(init: DataApiErrorInit, secrets: (string | undefined)[]) {
    // Values are redacted one by one; the words around them are ours (a short key must not
    // turn `key_expired` into `***_expired`).
    const redactor = redactorFor(secrets);
    const clean = (s: string | undefined) => (s === undefined ? undefined : redactor.text(s));
    const url = redactor.url(init.url);
    const parts = [
      `${init.operation} failed: ${init.outcome}`,
      init.httpStatus !== undefined ? `HTTP ${init.httpStatus}` : undefined,
      init.businessCode !== undefined
        ? `business code ${init.businessCode}${init.meaning ? ` (${init.meaning})` : ''}`
        : undefined,
      init.description
        ? `"${excerpt(redactor.text(init.description), 80).slice(1, -1)}"`
        : undefined,
      clean(init.causeMessage),
      `${init.method.toUpperCase()} ${url}`,
    ].filter((p): p is string => p !== undefined);
    super(redactor.composed(parts.join(', ')));
    this.operation = init.operation;
    this.method = init.method.toUpperCase();
    this.url = url;
    this.outcome = init.outcome;
    this.attempts = init.attempts;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.businessCode !== undefined) this.businessCode = init.businessCode;
    if (init.meaning !== undefined) this.meaning = clean(init.meaning);
    if (init.description !== undefined) this.description = clean(init.description);
    if (init.body !== undefined) this.body = clean(init.body);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.causeMessage !== undefined) this.causeMessage = clean(init.causeMessage);
  }

  toJSON(): DataApiErrorInit & { name: string; message: string } {
    const out: DataApiErrorInit & { name: string; message: string } = {
      name: this.name,
      message: this.message,
      operation: this.operation,
      method: this.method,
      url: this.url,
      outcome: this.outcome,
      attempts: this.attempts,
    };
    for (const k of [
      'httpStatus',
      'businessCode',
      'meaning',
      'description',
      'body',
      'retryAfterMs',
      'causeMessage',
    ] as const) {
      if (this[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = this[k];
    }
    return out;
  }
}

export function isDataApiError(e: unknown): e is DataApiError {
  return e instanceof DataApiError;
}

/** The outcome of an HTTP error that carries no business code of the operation's group. */
export function outcomeOfHttpStatus(status: number): ClientOutcome {
  if (status === 400 || status === 413 || status === 422) return 'invalid_parameters';
  if (status === 401) return 'wrong_key';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'service_error';
  return 'http_error';
}
