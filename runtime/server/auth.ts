/**
 * The key, read the ways an operation takes it (op.auth.transports: query, header, JSON body
 * field, bearer, cookie), and the verdict of a pluggable verifier mapped to the HTTP status and
 * outcome of docs/service.md §3: a missing or wrong key is 401, an expired order, arrears or an
 * exhausted quota is 403.
 */
import type { FastifyRequest } from 'fastify';
import type { KeyTransport, Operation, Outcome } from 'dataapi/model';
import { HttpError } from './errors.ts';

/** What a verifier says of a key: true (accepted), false (wrong key) or why it is refused. */
export type KeyVerdict = boolean | 'expired' | 'arrears' | 'quota' | 'forbidden';

export type VerifyKey = (
  key: string,
  op: Operation,
  request: FastifyRequest,
) => KeyVerdict | Promise<KeyVerdict>;

function first(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

function cookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The key the request carries in any of the transports, or undefined. */
export function readKey(request: FastifyRequest, transports: KeyTransport[]): string | undefined {
  for (const t of transports) {
    let value: string | undefined;
    switch (t.in) {
      case 'query':
        value = first((request.query as Record<string, unknown> | undefined)?.[t.name]);
        break;
      case 'header':
        value = first(request.headers[t.name.toLowerCase()]);
        break;
      case 'body': {
        const body = request.body;
        if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
          value = first(
            Object.hasOwn(body, t.name) ? (body as Record<string, unknown>)[t.name] : undefined,
          );
        }
        break;
      }
      case 'bearer': {
        const auth = first(request.headers.authorization);
        if (auth && /^bearer\s+/i.test(auth)) value = auth.replace(/^bearer\s+/i, '');
        break;
      }
      case 'cookie':
        value = cookie(first(request.headers.cookie), t.name);
        break;
    }
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

const REFUSAL: Record<Exclude<KeyVerdict, boolean>, { outcome: Outcome; message: string }> = {
  expired: { outcome: 'key_expired', message: 'Key expired or order invalid' },
  arrears: { outcome: 'in_arrears', message: 'Account in arrears' },
  quota: { outcome: 'quota_exceeded', message: 'Call count exceeded' },
  forbidden: { outcome: 'key_expired', message: 'Insufficient permission' },
};

/** Throws the HttpError for a refused key; returns the key when it is accepted. */
export async function authenticate(
  request: FastifyRequest,
  op: Operation,
  verify: VerifyKey | undefined,
): Promise<string> {
  const key = readKey(request, op.auth.transports);
  if (key === undefined) {
    throw new HttpError(401, 'appkey missing', { outcome: 'wrong_key' });
  }
  const verdict = verify ? await verify(key, op, request) : true;
  if (verdict === true) return key;
  if (verdict === false) throw new HttpError(401, 'Wrong appkey', { outcome: 'wrong_key' });
  const refusal = REFUSAL[verdict];
  throw new HttpError(403, refusal.message, { outcome: refusal.outcome });
}
