/**
 * Turns a response body into the client's one result shape, whichever envelope spelling the
 * operation uses. A body that lacks the operation's own spelling but carries the other one (the
 * seed's lower camel case samples also show a capitalised DataStatus) is read in that spelling.
 */
import type { Envelope, Operation } from '../../model/types.ts';
import { readEnvelope, type EnvelopeReading } from '../shared/envelope.ts';

export interface ResponseStatus {
  /** The business status code (StatusCode / statusCode). */
  code?: number;
  description?: string;
  /** ResponseDateTime / responseDateTime as sent. */
  dateTime?: string;
  /** DataTotalCount / dataTotalCount: the total for the condition, for paging. */
  totalCount?: number;
  /** The whole status object as received (RequestId, NoDataReason, status, ...). */
  raw?: Record<string, unknown>;
}

export interface Normalised {
  data: unknown;
  status: ResponseStatus;
  /** Whether the body had a status object in either spelling. */
  enveloped: boolean;
}

const flipFirst = (s: string, upper: boolean) =>
  s === '' ? s : (upper ? s[0]!.toUpperCase() : s[0]!.toLowerCase()) + s.slice(1);

/** The same envelope in the other spelling (same field names, first letter's case flipped). */
export function otherSpelling(env: Envelope): Envelope {
  const upper = env.spelling === 'lowerCamel';
  const f = (s: string) => flipFirst(s, upper);
  return {
    ...env,
    spelling: upper ? 'capitalised' : 'lowerCamel',
    statusKey: f(env.statusKey),
    payloadKey: f(env.payloadKey),
    codeField: f(env.codeField),
    descriptionField: f(env.descriptionField),
    dateTimeField: f(env.dateTimeField),
    totalCountField: f(env.totalCountField),
    statusFields: env.statusFields.map(f),
    toleratedKeys: [],
  };
}

function statusOf(env: Envelope, r: EnvelopeReading): ResponseStatus {
  const dateTime = r.status?.[env.dateTimeField];
  return {
    ...(r.code !== undefined ? { code: r.code } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(typeof dateTime === 'string' ? { dateTime } : {}),
    ...(r.totalCount !== undefined ? { totalCount: r.totalCount } : {}),
    ...(r.status ? { raw: r.status } : {}),
  };
}

export function normalise(op: Operation, body: unknown): Normalised {
  const env = op.envelope;
  if (!env) return { data: body, status: {}, enveloped: false };
  const own = readEnvelope(op, body);
  if (own.status) return { data: own.payload ?? null, status: statusOf(env, own), enveloped: true };
  const alt = otherSpelling(env);
  const other = readEnvelope({ ...op, envelope: alt }, body);
  if (other.status)
    return { data: other.payload ?? null, status: statusOf(alt, other), enveloped: true };
  return { data: own.payload ?? null, status: {}, enveloped: false };
}
