/**
 * An observed exchange as the checks' Probe: the same record and parsed body the suite's own
 * requests give them (http.ts), with the key redacted before any check can excerpt it.
 */
import { observedPurpose } from '../reports/findings-view.ts';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Operation } from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import type { ExchangeRecord, Variant } from '../exchange.ts';
import type { Probe } from '../probe.ts';
import { deferExcerpt } from '../record-excerpt.ts';
import { headerOf, requestUrlOf, truncated, type Observed } from './observed.ts';

/** The body as the client reads it: content-encoding undone (undefined when it cannot be). */
export function decodedBody(o: Observed): Buffer | undefined {
  const enc = (headerOf(o.responseHeaders, 'content-encoding') ?? '').trim().toLowerCase();
  try {
    if (enc === '' || enc === 'identity') return o.responseBody;
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(o.responseBody);
    if (enc === 'deflate') return inflateSync(o.responseBody);
    if (enc === 'br') return brotliDecompressSync(o.responseBody);
  } catch {
    return undefined;
  }
  return undefined;
}

/** The query parameters of a parsed request URL (shared by the exchanges that sent it). */
const queryParameters = new WeakMap<URL, string[]>();

/** Query parameters and top-level JSON body fields the request carried (coverage). */
function parametersOf(o: Observed): string[] {
  const url = requestUrlOf(o);
  let query = queryParameters.get(url);
  if (!query)
    queryParameters.set(
      url,
      (query = [...new Set([...url.searchParams.keys()].map((k) => `query.${k}`))]),
    );
  const out = [...query];
  if (/json/i.test(headerOf(o.requestHeaders, 'content-type') ?? ''))
    try {
      const body = JSON.parse(o.requestBody.toString('utf8')) as unknown;
      if (typeof body === 'object' && body !== null && !Array.isArray(body))
        out.push(...Object.keys(body).map((k) => `body.${k}`));
    } catch {
      // not JSON after all: no fields to count
    }
  return out;
}

export function businessCodeOf(op: Operation, body: unknown): number | undefined {
  const env = op.envelope;
  if (!env || typeof body !== 'object' || body === null) return undefined;
  const status = (body as Record<string, unknown>)[env.statusKey];
  if (typeof status !== 'object' || status === null) return undefined;
  const code = (status as Record<string, unknown>)[env.codeField];
  return typeof code === 'number' ? code : undefined;
}

/**
 * The probe of an observed exchange. Its role says what the checks may expect: a request that
 * needed a key and carried none is a `no-key` probe (the answer must be the wrong-key refusal);
 * any other is judged as a request of unknown validity (`lifecycle`): a declared status, a code of
 * the operation's group, never "the success status".
 */
export function probeOf(
  op: Operation,
  variant: Variant,
  o: Observed,
  keyed: boolean,
  redactor: Redactor,
  /** The request as findings name it (method, redacted URL, purpose), when already made. */
  request: ExchangeRecord['request'] = requestOf(o, redactor),
): Probe {
  const headers: Record<string, string> = {};
  for (const [k, v] of o.responseHeaders) {
    const name = k.toLowerCase();
    headers[name] =
      headers[name] === undefined ? redactor.exact(v) : `${headers[name]}, ${redactor.exact(v)}`;
  }
  const whole = !truncated(o);
  const body = whole && o.status !== undefined ? decodedBody(o) : undefined;
  let text = body?.toString('utf8');
  let json: unknown;
  let isJson = false;
  if (text) {
    // Most bodies hold no key: one scan of the text spares a pass over every value.
    const clean = !redactor.mayHold(text);
    try {
      const parsed = JSON.parse(text) as unknown;
      json = clean ? parsed : redactor.deep(parsed, 'exact');
      isJson = true;
    } catch {
      // not JSON: the content-type and schema checks say so
    }
    if (!clean) text = redactor.composed(text);
  }
  const role = keyed || variant === 'preview' || !op.auth.required ? 'lifecycle' : 'no-key';
  // Fields set one by one, in the record's order: spreading optional parts (`...(x ? {x} : {})`)
  // cost the judging thread microseconds per exchange.
  const record: ExchangeRecord = {
    request: { ...request },
    durationMs: o.durationMs,
    waitedMs: 0,
    retries: 0,
    parameters: parametersOf(o),
  };
  if (o.status !== undefined) record.status = o.status;
  if (headers['content-type']) record.contentType = headers['content-type'];
  if (o.error) record.error = redactor.text(o.error);
  // Written when a finding or a kept record first needs it (record-excerpt.ts).
  if (whole && body !== undefined) deferExcerpt(record, isJson ? json : text, redactor);
  const businessCode = businessCodeOf(op, json);
  if (businessCode !== undefined) record.businessCode = businessCode;
  const exchange: Probe['exchange'] = { record, headers } as Probe['exchange'];
  if (isJson) exchange.json = json;
  if (text !== undefined) exchange.text = text;
  exchange.isJson = isJson;
  exchange.budgetRefused = false;
  exchange.rateLimited = o.status === 429;
  exchange.retriedHeaders = [];
  return { role, op, exchange };
}

export const requestOf = (o: Observed, redactor: Redactor): ExchangeRecord['request'] => ({
  method: o.method.toUpperCase(),
  url: redactedUrl(redactor, `${o.origin}${o.pathAndQuery}`),
  purpose: observedPurpose(o.method.toUpperCase()),
});

/** Recent request URLs redacted, per redactor: traffic sends the same few over and over. */
const redactedUrls = new WeakMap<Redactor, Map<string, string>>();
const URLS_MAX = 2000;

function redactedUrl(redactor: Redactor, url: string): string {
  let known = redactedUrls.get(redactor);
  if (!known) redactedUrls.set(redactor, (known = new Map()));
  let out = known.get(url);
  if (out === undefined) {
    // URLs with ids in them never end: the memo starts again rather than grow.
    if (known.size >= URLS_MAX) known.clear();
    known.set(url, (out = redactor.url(url)));
  }
  return out;
}
