/**
 * Runtime pieces shared by generated servers, the mock, the client and the contract tests:
 * envelope reading and building for both spellings, and redaction of the key. Schema validation
 * and the model's queries live in model/ and are re-exported here.
 */
import type { Operation } from 'dataapi/model';

// The model's own queries and validation, re-exported for the runtime's callers.
export {
  codeGroupOf,
  createSchemaValidator,
  deref,
  describeErrors,
  excerpt,
  findOperation,
  isArraySchema,
  outcomeOf,
  propertiesOf,
  resolveRef,
  validatorFor,
} from 'dataapi/model';
export type {
  ErrorObject,
  SchemaValidator,
  ValidateFunction,
  ValidatorOptions,
} from 'dataapi/model';
export * from './credentials.ts';

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
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const foreignKeys = (OTHER[env.spelling] ?? []).filter(
    (k) => k in obj && !env.toleratedKeys.includes(k),
  );
  return {
    ...(status ? { status } : {}),
    payload: obj[env.payloadKey],
    ...(num(status?.[env.codeField]) !== undefined ? { code: num(status?.[env.codeField]) } : {}),
    ...(typeof status?.[env.descriptionField] === 'string'
      ? { description: status[env.descriptionField] as string }
      : {}),
    ...(num(status?.[env.totalCountField]) !== undefined
      ? { totalCount: num(status?.[env.totalCountField]) }
      : {}),
    foreignKeys,
    wellFormed: status !== undefined && env.payloadKey in obj,
  };
}

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

export const REDACTED = '***';

/**
 * Removes a secret from any text: the value itself and its URL-encoded forms. Use on every URL,
 * header dump, error message and report line that could contain the key.
 */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    // Longest first, so a raw form that is a prefix of an encoded one cannot leave a tail behind.
    const forms = [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%20/g, '+'),
      new URLSearchParams([['k', secret]]).toString().slice(2), // form encoding: ' -> %27, space -> +
      JSON.stringify(secret).slice(1, -1), // as escaped inside JSON text
    ].sort((a, b) => b.length - a.length);
    for (const form of new Set(forms)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** redact() over every string (and object key) of a JSON-like value; returns a copy. */
export function redactDeep<T>(value: T, secrets: (string | undefined)[]): T {
  if (!secrets.some(Boolean)) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) out[redact(k, secrets)] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
