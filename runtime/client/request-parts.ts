/**
 * The parts of one request before openapi-fetch serialises them: the credentials placed where
 * the operation takes them (query, header, cookie or JSON body), the fixed query values of its
 * path key, the Cookie header and a multipart body as FormData.
 */
import { chooseRequirement, writeCredentials } from '../shared/credentials.ts';
import { toFormData } from './multipart.ts';
import type { CallOptions, ClientOptions, RequestInput } from './options.ts';
import { cookieHeader } from './serialize.ts';
import type { Target } from './session.ts';

export interface RequestParts {
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
}

/** Puts the credentials of the chosen security requirement into the request (not on previews). */
function addCredentials(
  t: Target,
  parts: RequestParts,
  cookies: Record<string, unknown>,
  options: ClientOptions,
  keyIn: CallOptions['keyIn'],
): void {
  const requirement = t.preview ? [] : chooseRequirement(t.op.auth, keyIn ?? options.keyIn);
  writeCredentials(
    requirement,
    (transport) =>
      ('scheme' in transport ? options.credentials?.[transport.scheme] : undefined) ??
      options.appkey,
    {
      query: (name, value) => (parts.query[name] = value),
      header: (name, value) => (parts.header[name] = value),
      cookie: (name, value) => (cookies[name] = value),
      body: (name, value) =>
        (parts.body = { ...(parts.body as Record<string, unknown>), [name]: value }),
    },
  );
}

export async function requestParts(
  t: Target,
  input: RequestInput,
  options: ClientOptions,
  callOptions: CallOptions,
): Promise<RequestParts> {
  const { op } = t;
  const parts: RequestParts = {
    query: { ...input.query },
    header: { ...input.header },
    path: input.path ?? {},
    body: input.body,
  };
  const cookies: Record<string, unknown> = { ...input.cookie };
  addCredentials(t, parts, cookies, options, callOptions.keyIn);
  for (const p of op.parameters.query)
    if (p.fixed !== undefined && parts.query[p.name] === undefined) parts.query[p.name] = p.fixed;
  const cookie = cookieHeader(cookies);
  if (cookie) parts.header['Cookie'] = cookie;
  if (parts.body !== undefined && op.body?.kind === 'multipart')
    parts.body = await toFormData(parts.body, op.body.fileFields);
  return parts;
}
