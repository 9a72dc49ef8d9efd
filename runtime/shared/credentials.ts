/**
 * Credentials on the wire, the one module that knows where each key transport goes: placed into a
 * request being built (the client, the contract suite) and read back from a received one (the
 * server, the proxy). apiKey as is, in its query parameter, header, cookie or JSON body field;
 * HTTP Basic as `Basic base64(user:password)`; bearer, oauth2 and openIdConnect as `Bearer token`.
 * Also which transports of an operation a request sends (one security requirement: every scheme
 * it names).
 */
import { keyTransport, type Auth, type KeyTransport } from 'dataapi/model';
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

/** Where a request being built takes a placed credential: one writer per place. */
export type CredentialSink = {
  readonly [W in CredentialPlacement['in']]: (name: string, value: string) => void;
};

/**
 * Places the credential of every transport of a requirement into a request being built;
 * `credentialOf` gives each transport's credential (undefined: that one is not sent).
 */
export function writeCredentials(
  requirement: readonly KeyTransport[],
  credentialOf: (t: KeyTransport) => string | undefined,
  sink: CredentialSink,
): void {
  // Two schemes of one requirement in the same place (fec.gov: apiKey and ApiKeyQueryAuth, both
  // the query's api_key) are one credential there: written twice, the query read it as a list.
  const written = new Set<string>();
  for (const t of requirement) {
    const credential = credentialOf(t);
    if (credential === undefined) continue;
    const place = placeCredential(t, credential);
    const at = `${place.in} ${place.in === 'header' ? place.name.toLowerCase() : place.name}`;
    if (written.has(at)) continue;
    written.add(at);
    sink[place.in](place.name, place.value);
  }
}

/**
 * What a received request offers a reader, each way as the receiver parses it (Fastify's parsed
 * request on the server, the observed bytes in the proxy). Undefined: not there.
 */
export interface CredentialSource {
  query(name: string): string | undefined;
  /** A header by its lower-case name. */
  header(name: string): string | undefined;
  /** A field of a JSON object body. */
  bodyField(name: string): string | undefined;
}

/** The credential one transport of a received request carries, or undefined (an empty one too). */
export function readCredential(t: KeyTransport, from: CredentialSource): string | undefined {
  let value: string | undefined;
  switch (t.in) {
    case 'query':
      value = from.query(t.name);
      break;
    case 'header':
      value = from.header(t.name.toLowerCase());
      break;
    case 'cookie':
      value = readCookie(from.header('cookie'), t.name);
      break;
    case 'body':
      value = from.bodyField(t.name);
      break;
    case 'bearer':
      value = readBearer(from.header('authorization'));
      break;
    case 'basic':
      value = readBasic(from.header('authorization'));
      break;
  }
  return value === '' ? undefined : value;
}

/** One cookie's value from a Cookie header (RFC 6265 pairs), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
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
    (preferred && requirements.find((r) => keyTransport({ transports: r }, preferred))) ??
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
