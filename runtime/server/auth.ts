/**
 * The key, read the ways an operation takes it (op.auth.requirements: query, header, cookie, JSON
 * body field, bearer, basic; every scheme of one requirement), and the verdict of a pluggable verifier mapped to the HTTP status and
 * outcome of docs/service.md §3: a missing or wrong key is 401, an expired order, arrears or an
 * exhausted quota is 403.
 */
import type { FastifyRequest } from 'fastify';
import type { KeyTransport, Operation, Outcome } from 'dataapi/model';
import { headerOfTransport, isHttpScheme } from 'dataapi/model';
import { readCredential, type CredentialSource } from 'dataapi/runtime/shared';
import { HttpError } from './errors.ts';

/** What a verifier says of a key: true (accepted), false (wrong key) or why it is refused. */
export type KeyVerdict = boolean | 'expired' | 'arrears' | 'quota' | 'forbidden';

export type VerifyKey = (
  key: string,
  op: Operation,
  request: FastifyRequest,
  /** The transport the credential came in (a Basic credential is `user:password`). */
  transport?: KeyTransport,
) => KeyVerdict | Promise<KeyVerdict>;

function first(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

/** What the request offers the credential reader, as Fastify parsed it. */
function sourceOf(request: FastifyRequest): CredentialSource {
  return {
    query: (name) => first((request.query as Record<string, unknown> | undefined)?.[name]),
    header: (name) => first(request.headers[name]),
    bodyField: (name) => {
      const body = request.body;
      return typeof body === 'object' && body !== null && !Array.isArray(body)
        ? first(Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined)
        : undefined;
    },
  };
}

/** The credential one transport of the request carries, or undefined. */
export function readTransport(request: FastifyRequest, t: KeyTransport): string | undefined {
  return readCredential(t, sourceOf(request));
}

/** The key the request carries in any of the transports, or undefined. */
export function readKey(request: FastifyRequest, transports: KeyTransport[]): string | undefined {
  for (const t of transports) {
    const value = readTransport(request, t);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The credentials of the first security requirement the request carries completely. */
function presented(
  request: FastifyRequest,
  op: Operation,
): { transport: KeyTransport; value: string }[] | undefined {
  const requirements = op.auth.requirements ?? op.auth.transports.map((t) => [t]);
  const complete = requirements
    .map((requirement) =>
      requirement.map((transport) => ({ transport, value: readTransport(request, transport) })),
    )
    .filter((values): values is { transport: KeyTransport; value: string }[] =>
      values.every((v) => v.value !== undefined),
    );
  // An apiKey named Authorization reads any value, `Bearer k` too: where a bearer or basic
  // scheme recognised its own prefix in that header, the request meant that one.
  const rawAuthorization = complete.some((vs) =>
    vs.some((v) => 'name' in v.transport && headerOfTransport(v.transport) === 'authorization'),
  );
  const parsed = rawAuthorization
    ? complete.find((vs) => vs.some((v) => isHttpScheme(v.transport)))
    : undefined;
  return parsed ?? complete[0];
}

/** Whether the request carries any credential the operation takes. */
export function carriesCredential(request: FastifyRequest, op: Operation): boolean {
  return readKey(request, op.auth.transports) !== undefined;
}

const REFUSAL: Record<Exclude<KeyVerdict, boolean>, { outcome: Outcome; message: string }> = {
  expired: { outcome: 'key_expired', message: 'Key expired or order invalid' },
  arrears: { outcome: 'in_arrears', message: 'Account in arrears' },
  quota: { outcome: 'quota_exceeded', message: 'Call count exceeded' },
  forbidden: { outcome: 'key_expired', message: 'Insufficient permission' },
};

/**
 * Throws the HttpError for a missing or refused credential; returns the (first) credential when
 * every scheme of one of the operation's security requirements is satisfied. No promise when the
 * verifier answers at once (the mock's key set): the route hook then continues in the same tick;
 * with a verifier that answers later, a promise that rejects as the throw would.
 */
export function authenticate(
  request: FastifyRequest,
  op: Operation,
  verify: VerifyKey | undefined,
): string | Promise<string> {
  const credentials = presented(request, op);
  if (credentials === undefined || credentials.length === 0) {
    throw new HttpError(401, 'appkey missing', { outcome: 'wrong_key' });
  }
  const key = (credentials[0] as { value: string }).value;
  for (let i = 0; i < credentials.length; i++) {
    const { transport, value } = credentials[i]!;
    const verdict = verify ? verify(value, op, request, transport) : true;
    if (typeof verdict === 'object') return settle(verdict, credentials, i, request, op, verify!);
    judge(verdict);
  }
  return key;
}

/** The rest of authenticate once a verdict is a promise. */
async function settle(
  pending: Promise<KeyVerdict>,
  credentials: { transport: KeyTransport; value: string }[],
  from: number,
  request: FastifyRequest,
  op: Operation,
  verify: VerifyKey,
): Promise<string> {
  judge(await pending);
  for (const { transport, value } of credentials.slice(from + 1))
    judge(await verify(value, op, request, transport));
  return (credentials[0] as { value: string }).value;
}

/** Throws the refusal a verdict other than true stands for. */
function judge(verdict: KeyVerdict): void {
  if (verdict === true) return;
  if (verdict === false) throw new HttpError(401, 'Wrong appkey', { outcome: 'wrong_key' });
  const refusal = REFUSAL[verdict];
  throw new HttpError(403, refusal.message, { outcome: refusal.outcome });
}
