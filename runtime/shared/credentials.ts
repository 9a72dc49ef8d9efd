/**
 * Credentials on the wire, one place for the client, the server and the contract tests: where a
 * security scheme's credential goes and how it is written (apiKey as is, in its query parameter,
 * header or cookie; HTTP Basic as `Basic base64(user:password)`; bearer, oauth2 and openIdConnect
 * as `Bearer token`), and which transports of an operation a request sends (one security
 * requirement: every scheme it names).
 */
import type { Auth, KeyTransport } from 'dataapi/model';
import { fromBase64, toBase64 } from './base64.ts';

export interface CredentialPlacement {
  in: 'query' | 'header' | 'cookie' | 'body';
  name: string;
  value: string;
}

/** A Basic credential is `user:password`; a bare value is the user with an empty password. */
export function basicHeader(credential: string): string {
  const pair = credential.includes(':') ? credential : `${credential}:`;
  return `Basic ${toBase64(pair)}`;
}

/** Where and how a transport carries `credential`. */
export function placeCredential(t: KeyTransport, credential: string): CredentialPlacement {
  switch (t.in) {
    case 'basic':
      return { in: 'header', name: 'Authorization', value: basicHeader(credential) };
    case 'bearer':
      return { in: 'header', name: 'Authorization', value: `Bearer ${credential}` };
    default:
      return { in: t.in, name: t.name, value: credential };
  }
}

/**
 * The transports to send for an operation: the first security requirement (all its schemes) that
 * uses `preferred`, else the first requirement. Empty when the operation takes no credential.
 */
export function chooseRequirement(
  auth: Pick<Auth, 'requirements' | 'transports'>,
  preferred?: KeyTransport['in'],
): KeyTransport[] {
  const requirements = auth.requirements ?? auth.transports.map((t) => [t]); // models generated before requirements
  return (
    (preferred && requirements.find((r) => r.some((t) => t.in === preferred))) ??
    requirements[0] ??
    []
  );
}

/** The credential a Basic `Authorization` header carries (`user:password`), if it is one. */
export function readBasic(header: string | undefined): string | undefined {
  const m = header ? /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  if (!m) return undefined;
  const text = fromBase64(m[1] as string);
  return text.includes(':') ? text : undefined;
}

/** The token a Bearer `Authorization` header carries, if it is one. */
export function readBearer(header: string | undefined): string | undefined {
  const m = header ? /^bearer\s+(\S.*)$/i.exec(header) : null;
  return m ? (m[1] as string).trim() : undefined;
}
