/**
 * The key-transport module (runtime/shared/credentials.ts): a credential placed for every kind of
 * transport lands where that transport takes it, and reading the request back finds it there.
 */
import { describe, expect, it } from 'vitest';
import type { KeyTransport } from '../../model/index.ts';
import {
  readCookie,
  readCredential,
  writeCredentials,
  type CredentialSource,
} from '../../runtime/shared/credentials.ts';

const ALL: KeyTransport[] = [
  { in: 'query', name: 'appkey', scheme: 'q' },
  { in: 'header', name: 'X-Service-Appkey', scheme: 'h' },
  { in: 'cookie', name: 'sid', scheme: 'c' },
  { in: 'body', name: 'appkey' },
  { in: 'bearer', scheme: 'b' },
  { in: 'basic', scheme: 'u' },
];

/** A request built by the sink, as a receiver would see it. */
function built(requirement: KeyTransport[], credential: (t: KeyTransport) => string | undefined) {
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const body: Record<string, string> = {};
  writeCredentials(requirement, credential, {
    query: (name, value) => (query[name] = value),
    header: (name, value) => (headers[name.toLowerCase()] = value),
    cookie: (name, value) => cookies.push(`${name}=${value}`),
    body: (name, value) => (body[name] = value),
  });
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');
  const source: CredentialSource = {
    query: (name) => query[name],
    header: (name) => headers[name],
    bodyField: (name) => body[name],
  };
  return { query, headers, body, source };
}

describe('placing credentials', () => {
  it('writes each transport where it takes the key, in its own form', () => {
    const one = (t: KeyTransport) => built([t], () => 'user:pw');
    expect(one(ALL[0]!).query).toEqual({ appkey: 'user:pw' });
    expect(one(ALL[1]!).headers).toEqual({ 'x-service-appkey': 'user:pw' });
    expect(one(ALL[2]!).headers).toEqual({ cookie: 'sid=user:pw' });
    expect(one(ALL[3]!).body).toEqual({ appkey: 'user:pw' });
    expect(one(ALL[4]!).headers).toEqual({ authorization: 'Bearer user:pw' });
    expect(one(ALL[5]!).headers).toEqual({ authorization: 'Basic dXNlcjpwdw==' });
  });

  it('skips a transport without a credential and places every other one of the requirement', () => {
    const r = built([ALL[0]!, ALL[1]!, ALL[2]!], (t) => (t.in === 'header' ? undefined : 'k'));
    expect(r.query).toEqual({ appkey: 'k' });
    expect(r.headers).toEqual({ cookie: 'sid=k' });
    expect(Object.keys(r.headers)).toEqual(['cookie']);
  });
});

describe('reading credentials back', () => {
  it('finds what was placed, for every kind of transport', () => {
    for (const t of ALL) {
      const credential = t.in === 'basic' ? 'user:pw' : `key-of-${t.in}`;
      const { source } = built([t], () => credential);
      expect(readCredential(t, source), t.in).toBe(credential);
      // No other transport reads it: query and body `appkey` are two places with one name.
      for (const other of ALL.filter((o) => o !== t))
        expect(readCredential(other, source), `${other.in} after ${t.in}`).toBeUndefined();
    }
  });

  it('reads an empty credential as none, and a Bearer header not as Basic', () => {
    const { source } = built([ALL[0]!], () => '');
    expect(readCredential(ALL[0]!, source)).toBeUndefined();
    const bearer = built([ALL[4]!], () => 'tok').source;
    expect(readCredential(ALL[5]!, bearer)).toBeUndefined();
  });

  it('reads one cookie among others, by its exact name', () => {
    expect(readCookie('a=1; sid=k2 ;b=3', 'sid')).toBe('k2');
    expect(readCookie('SID=k', 'sid')).toBeUndefined();
    expect(readCookie(undefined, 'sid')).toBeUndefined();
  });
});
