/**
 * Where an observed request carried a key: every transport any operation of the model takes
 * (query `appkey`, header `X-SERVICE-APPKEY`, JSON body `appkey`, ...), so a key sent the way
 * another operation takes it is seen, and named, rather than missed.
 */
import type { KeyTransport, ServiceModel } from 'dataapi/model';
import { readCredential, type CredentialSource } from 'dataapi/runtime/shared';
import { headerOf, requestUrlOf, type Observed } from './observed.ts';

export interface SentKey {
  transport: KeyTransport;
  /** The value as sent (a secret: only for redaction, never printed). */
  value: string;
}

export function describeTransport(t: KeyTransport): string {
  switch (t.in) {
    case 'query':
      return `query parameter ${t.name}`;
    case 'header':
      return `header ${t.name}`;
    case 'cookie':
      return `cookie ${t.name}`;
    case 'body':
      return `body field ${t.name}`;
    case 'bearer':
      return 'Authorization: Bearer';
    case 'basic':
      return 'Authorization: Basic';
  }
}

const transportsOf = new WeakMap<ServiceModel, KeyTransport[]>();

function allTransports(model: ServiceModel): KeyTransport[] {
  const known = transportsOf.get(model);
  if (known) return known;
  const seen = new Map<string, KeyTransport>();
  for (const op of model.operations)
    for (const t of op.auth.transports) seen.set(describeTransport(t), t);
  const list = [...seen.values()];
  transportsOf.set(model, list);
  return list;
}

function jsonBody(o: Observed): Record<string, unknown> | undefined {
  const type = headerOf(o.requestHeaders, 'content-type') ?? '';
  if (!/json/i.test(type) || o.requestBody.length === 0) return undefined;
  try {
    const v = JSON.parse(o.requestBody.toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The keys a request carried, by transport. */
export function sentKeys(model: ServiceModel, o: Observed): SentKey[] {
  const url = requestUrlOf(o);
  const body = jsonBody(o);
  const source: CredentialSource = {
    query: (name) => url.searchParams.get(name) ?? undefined,
    header: (name) => headerOf(o.requestHeaders, name),
    bodyField: (name) => (typeof body?.[name] === 'string' ? (body[name] as string) : undefined),
  };
  const out: SentKey[] = [];
  for (const t of allTransports(model)) {
    const value = readCredential(t, source);
    if (value) out.push({ transport: t, value });
  }
  return out;
}
