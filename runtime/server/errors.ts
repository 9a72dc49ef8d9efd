/**
 * Error and success bodies of the service (docs/service.md §4 and §5): an error of an enveloped operation is
 * that operation's envelope spelling with the business code its group gives the HTTP status
 * (BusinessCodeGroup.byHttpStatus), payload null. Where the group has no code for a status (the
 * base group only knows 100), the HTTP status itself is the business code, so an error body never
 * carries the success code.
 */
import {
  declaredResponse,
  type Operation,
  type Outcome,
  type Response,
  type ServiceModel,
} from 'dataapi/model';
import { buildEnvelope, codeGroupOf } from 'dataapi/runtime/shared';

/** An HTTP error a handler, hook or verifier can throw; the server answers it in the op's spelling. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly outcome: Outcome | undefined;
  readonly businessCode: number | undefined;
  readonly headers: Record<string, string>;
  constructor(
    statusCode: number,
    message: string,
    options: { outcome?: Outcome; businessCode?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.outcome = options.outcome;
    this.businessCode = options.businessCode;
    this.headers = options.headers ?? {};
  }
}

const HTTP_TEXT: Record<number, string> = {
  400: 'Parameter missing, malformed or illegal combination',
  401: 'appkey missing or invalid',
  403: 'Order expired, insufficient permission, or quota unavailable',
  404: 'Path does not exist',
  405: 'HTTP method not allowed for the path',
  413: 'Request body or upload too large',
  415: 'Content type of upload or body not accepted',
  429: 'Rate limit exceeded',
  500: 'Internal error; retry later',
  501: 'Not implemented',
  502: 'Upstream dependency unavailable or abnormal',
};

export function httpText(status: number): string {
  return HTTP_TEXT[status] ?? `HTTP ${status}`;
}

/** The business code an operation answers `status` with (see the module comment). */
export function businessCodeFor(
  model: ServiceModel,
  op: Operation | undefined,
  status: number,
  outcome?: Outcome,
): number {
  const group = op ? codeGroupOf(model, op) : undefined;
  if (group) {
    if (outcome) {
      const byOutcome = group.codes.find((c) => c.outcome === outcome);
      if (byOutcome) return byOutcome.code;
    }
    const byStatus = group.byHttpStatus[String(status)];
    if (byStatus !== undefined) return byStatus;
  }
  return status;
}

/** The envelope used for answers that belong to no operation (404): the model's most common one. */
export function defaultEnvelopeOp(model: ServiceModel): Operation | undefined {
  const counts = new Map<string, { n: number; op: Operation }>();
  for (const op of model.operations) {
    if (!op.envelope) continue;
    const entry = counts.get(op.envelope.spelling) ?? { n: 0, op };
    entry.n += 1;
    counts.set(op.envelope.spelling, entry);
  }
  let best: { n: number; op: Operation } | undefined;
  for (const entry of counts.values()) if (!best || entry.n > best.n) best = entry;
  return best?.op;
}

/** The JSON body of an error answer. */
export function errorBody(
  model: ServiceModel,
  op: Operation | undefined,
  status: number,
  message: string,
  options: { outcome?: Outcome; businessCode?: number; envelopeOp?: Operation } = {},
): unknown {
  const shape = op?.envelope ? op : op ? undefined : options.envelopeOp;
  if (shape?.envelope) {
    const code = options.businessCode ?? businessCodeFor(model, op, status, options.outcome);
    return buildEnvelope(shape, null, { code, description: message, totalCount: 0 });
  }
  return problemBody(status, message);
}

/** An error answer: its media type (none for an empty body) and body. */
export interface ErrorAnswer {
  mediaType?: string;
  body: unknown;
  /**
   * The error's message where the body may not carry it (a declared error example answered in
   * its place): sent in the `x-dataapi-reason` header, so a report can say why.
   */
  reason?: string;
}

/**
 * Builds the body of an error the server produces itself for an operation without an envelope,
 * in the shape of the response the operation declares for that status. Returns undefined to
 * leave it to the default (RFC 9457 problem details).
 */
export type DescribeError = (
  op: Operation,
  status: number,
  message: string,
  declared: Response,
) => ErrorAnswer | undefined;

const PROBLEM = 'application/problem+json';

/** RFC 9457 problem details. */
export function problemBody(status: number, message: string): Record<string, unknown> {
  return { type: 'about:blank', title: httpText(status), status, detail: message };
}

/**
 * The error answer of an operation (or of no operation: 404): the service's envelope where the
 * operation (or the model) has one; else the response the operation declares for the status
 * (its media type and, through `describe`, a body of its schema; an empty body where it declares
 * no content); else RFC 9457 `application/problem+json`.
 */
export function errorAnswer(
  model: ServiceModel,
  op: Operation | undefined,
  status: number,
  message: string,
  options: {
    outcome?: Outcome;
    businessCode?: number;
    envelopeOp?: Operation;
    describe?: DescribeError;
  } = {},
): ErrorAnswer {
  const shape = op?.envelope ? op : op ? undefined : options.envelopeOp;
  if (shape?.envelope)
    return {
      mediaType: 'application/json; charset=utf-8',
      body: errorBody(model, op, status, message, options),
    };
  const declared = op ? declaredResponse(op, status) : undefined;
  if (op && declared) {
    // A declared error without content: an empty body, the reason in the header (a refusal
    // always says why: corpus hhs.gov, "HTTP 400: " and nothing more in the report).
    if (declared.mediaType === undefined) return { body: undefined, reason: message };
    const described = options.describe?.(op, status, message, declared);
    if (described) return described;
    if (declared.kind === 'json')
      return { mediaType: declared.mediaType, body: problemBody(status, message) };
  }
  return { mediaType: PROBLEM, body: problemBody(status, message) };
}

/** What a handler may return instead of a bare payload, to set the envelope's status fields. */
export class ServiceResult<T = unknown> {
  constructor(
    readonly payload: T,
    readonly status: {
      code?: number;
      description?: string;
      totalCount?: number;
      /** Further status-object fields (RequestId, NoDataReason, the SSL `status`, ...). */
      extra?: Record<string, unknown>;
      /** HTTP status (default: the operation's success status). */
      httpStatus?: number;
      headers?: Record<string, string>;
    } = {},
    /**
     * The result (payload and status) never changes: the server serialises it once and reuses
     * the text (the mock's canned answers). Never mutate a constant result after returning it.
     */
    readonly constant: boolean = false,
  ) {}
}

/** Wraps a payload with explicit envelope status fields (see ServiceResult). */
export function respond<T>(
  payload: T,
  status: ServiceResult<T>['status'] = {},
  options: { constant?: boolean } = {},
): ServiceResult<T> {
  return new ServiceResult(payload, status, options.constant === true);
}
