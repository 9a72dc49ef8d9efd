/** The service's two envelope spellings: reading a body and building one. */
import type { Operation } from 'dataapi/model';

export interface EnvelopeReading {
  /** The status object under the operation's own spelling, if present. */
  status?: Record<string, unknown>;
  payload: unknown;
  code?: number;
  description?: string;
  totalCount?: number;
  /** Keys of the other spelling that the body carries and the operation does not tolerate. */
  foreignKeys: string[];
  /** Whether the operation's own status and payload keys are both present. */
  wellFormed: boolean;
}

const OTHER: Record<string, string[]> = {
  capitalised: ['dataStatus', 'data'],
  lowerCamel: ['DataStatus', 'Data'],
};

/** Reads a body in the operation's envelope spelling; plain JSON operations pass through. */
export function readEnvelope(op: Operation, body: unknown): EnvelopeReading {
  const env = op.envelope;
  if (!env) return { payload: body, foreignKeys: [], wellFormed: true };
  const obj =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const rawStatus = obj[env.statusKey];
  const status =
    typeof rawStatus === 'object' && rawStatus !== null
      ? (rawStatus as Record<string, unknown>)
      : undefined;
  const foreignKeys = (OTHER[env.spelling] ?? []).filter(
    (k) => k in obj && !env.toleratedKeys.includes(k),
  );
  // Fields set one by one, in the reading's order: spreading optional parts (`...(x ? {x} : {})`)
  // cost the proxy's judging thread microseconds per body.
  const reading = {} as EnvelopeReading;
  if (status) reading.status = status;
  reading.payload = obj[env.payloadKey];
  const code = finite(status?.[env.codeField]);
  if (code !== undefined) reading.code = code;
  const description = status?.[env.descriptionField];
  if (typeof description === 'string') reading.description = description;
  const totalCount = finite(status?.[env.totalCountField]);
  if (totalCount !== undefined) reading.totalCount = totalCount;
  reading.foreignKeys = foreignKeys;
  reading.wellFormed = status !== undefined && env.payloadKey in obj;
  return reading;
}

const finite = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Builds an envelope body for an operation (servers and the mock). */
export function buildEnvelope(
  op: Operation,
  payload: unknown,
  status: {
    code: number;
    description: string;
    totalCount?: number;
    extra?: Record<string, unknown>;
  },
  now: Date = new Date(),
): unknown {
  const env = op.envelope;
  if (!env) return payload;
  const statusObject: Record<string, unknown> = {
    [env.codeField]: status.code,
    [env.descriptionField]: status.description,
    [env.dateTimeField]: now.toISOString(),
    [env.totalCountField]:
      status.totalCount ?? (Array.isArray(payload) ? payload.length : payload == null ? 0 : 1),
    ...status.extra,
  };
  return { [env.statusKey]: statusObject, [env.payloadKey]: payload };
}
