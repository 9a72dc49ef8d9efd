/**
 * The client runtime: interprets the model to call any operation or preview variant by id.
 * openapi-fetch does the request plumbing (URL, parameter and body serialisation, headers);
 * this module adds what the model knows: the key transport, the envelope, business codes,
 * retries, pacing and timeouts. Generated code wraps it in one typed method per operation.
 */
import createFetchClient from 'openapi-fetch';
import { codeGroupOf, excerpt, outcomeOf, type Operation, type ServiceModel } from 'dataapi/model';
// Shared modules by file, not through runtime/shared's entry (which also carries validation):
// the packed client must not depend on Ajv.
import { basicHeader, chooseRequirement, placeCredential } from '../shared/credentials.ts';
import { DataApiError, outcomeOfHttpStatus, type DataApiErrorInit } from './errors.ts';
import { normalise, type ResponseStatus } from './envelope.ts';
import { toFormData } from './multipart.ts';
import { SlidingWindowLimiter, settingOf, type RateLimitOptions } from './rate-limit.ts';
import { retryPolicy, type RetryOptions } from './retry.ts';
import {
  bodySerializerFor,
  cookieHeader,
  isJsonLike,
  pathSerializerFor,
  querySerializerFor,
} from './serialize.ts';
import { readSse, type SseStream } from './sse.ts';
import {
  newCallContext,
  policyFetch,
  timedOut,
  type CallContext,
  type FetchLike,
} from './transport.ts';

export type KeyLocation = 'query' | 'header' | 'body' | 'cookie' | 'bearer' | 'basic';

export interface ClientOptions {
  /** The service's base URL (the `{base_url}` of the description). */
  baseUrl: string;
  /**
   * The credential (the application key; `user:password` for HTTP Basic). Preview variants never
   * send it.
   */
  appkey?: string;
  /** Credentials per security scheme name, where one differs from `appkey`. */
  credentials?: Record<string, string>;
  /** A fetch implementation (default: global fetch). */
  fetch?: FetchLike;
  /** Per attempt, including reading the body (default 30 s; 0 disables). */
  timeoutMs?: number;
  /** Retry policy; `false` disables retries. */
  retry?: RetryOptions | false;
  /** Client-side pacing under each operation's declared limit; `false` disables it. */
  rateLimit?: RateLimitOptions | false;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Where to send the key when an operation accepts several transports (default: the first). */
  keyIn?: KeyLocation;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  retry?: RetryOptions | false;
  keyIn?: KeyLocation;
}

export interface ClientResult<T = unknown> {
  /** The payload: Data / data of an envelope, or the whole body of a plain JSON operation. */
  data: T;
  /** The envelope's status fields (all absent for plain JSON operations). */
  status: ResponseStatus;
  httpStatus: number;
  headers: Headers;
  /** Requests sent for this call, retries included. */
  attempts: number;
}

export interface RequestInput {
  query?: Record<string, unknown>;
  path?: Record<string, unknown>;
  header?: Record<string, unknown>;
  cookie?: Record<string, unknown>;
  body?: unknown;
}

interface Target {
  /** The operation or preview variant id. */
  id: string;
  op: Operation;
  path: string;
  preview: boolean;
}

export interface RuntimeClient {
  readonly model: ServiceModel;
  call(id: string, input?: RequestInput, options?: CallOptions): Promise<ClientResult>;
  stream(id: string, input?: RequestInput, options?: CallOptions): Promise<SseStream>;
  /** Internal: a call to a path below the base URL in the operation's name (polling URLs). */
  callPath(
    id: string,
    path: string,
    query: Record<string, string>,
    options?: CallOptions,
  ): Promise<ClientResult>;
}

export function createRuntimeClient(model: ServiceModel, options: ClientOptions): RuntimeClient {
  const targets = new Map<string, Target>();
  for (const op of model.operations) {
    targets.set(op.id, { id: op.id, op, path: op.path, preview: false });
    if (op.preview)
      targets.set(op.preview.id, { id: op.preview.id, op, path: op.preview.path, preview: true });
  }
  const secrets = [
    options.appkey,
    ...Object.values(options.credentials ?? {}),
    ...[options.appkey, ...Object.values(options.credentials ?? {})].map((c) =>
      c === undefined ? undefined : basicHeader(c).slice(6),
    ),
  ];
  const baseFetch: FetchLike = options.fetch ?? ((r) => globalThis.fetch(r));
  const http = createFetchClient<Record<string, never>>({ baseUrl: options.baseUrl });
  const limiters = new Map<string, SlidingWindowLimiter>();
  const rateLimit = options.rateLimit;
  const limiterFor = (t: Target): SlidingWindowLimiter | undefined => {
    if (rateLimit === false) return undefined;
    let l = limiters.get(t.id);
    if (!l) {
      l = new SlidingWindowLimiter(
        settingOf(t.op.rateLimit, rateLimit?.overrides?.[t.id]),
        rateLimit?.marginMs,
      );
      limiters.set(t.id, l);
    }
    return l;
  };

  function targetOf(id: string): Target {
    const t = targets.get(id);
    if (!t) throw new Error(`unknown operation ${JSON.stringify(id)}`);
    return t;
  }

  function fail(t: Target, ctx: CallContext, url: string, init: Partial<DataApiErrorInit>): never {
    throw new DataApiError(
      {
        operation: t.id,
        method: t.op.method,
        url,
        outcome: 'http_error',
        attempts: ctx.attempts,
        ...(ctx.lastRetryAfterMs !== undefined ? { retryAfterMs: ctx.lastRetryAfterMs } : {}),
        ...init,
      },
      secrets,
    );
  }

  async function send(
    t: Target,
    input: RequestInput,
    callOptions: CallOptions,
    parseAs: 'text' | 'stream',
    rawPath?: string,
  ) {
    const { op } = t;
    const query: Record<string, unknown> = { ...input.query };
    const header: Record<string, unknown> = { ...input.header };
    let body = input.body;
    const requirement = t.preview
      ? []
      : chooseRequirement(op.auth, callOptions.keyIn ?? options.keyIn);
    for (const transport of requirement) {
      const key =
        ('scheme' in transport ? options.credentials?.[transport.scheme] : undefined) ??
        options.appkey;
      if (key === undefined) continue;
      const place = placeCredential(transport, key);
      if (place.in === 'query') query[place.name] = place.value;
      else if (place.in === 'header') header[place.name] = place.value;
      else if (place.in === 'cookie')
        input = { ...input, cookie: { ...input.cookie, [place.name]: place.value } };
      else body = { ...(body as Record<string, unknown>), [place.name]: place.value };
    }
    for (const p of op.parameters)
      if (p.fixed !== undefined && query[p.name] === undefined) query[p.name] = p.fixed;
    const cookie = cookieHeader(input.cookie);
    if (cookie) header['Cookie'] = cookie;
    const kind = op.body?.kind;
    if (body !== undefined && kind === 'multipart')
      body = await toFormData(body, op.body?.fileFields ?? []);
    const ctx = newCallContext({
      ...(limiterFor(t) ? { limiter: limiterFor(t) } : {}),
      policy: retryPolicy(callOptions.retry ?? options.retry),
      retryable: false,
      timeoutMs: callOptions.timeoutMs ?? options.timeoutMs ?? 30_000,
      ...(callOptions.signal ? { signal: callOptions.signal } : {}),
    });
    ctx.retryable = !op.writes || ctx.policy.writes;
    let url = `${options.baseUrl}${rawPath ?? t.path}`;
    const fetchForCall = policyFetch(async (request) => {
      url = request.url;
      return baseFetch(request);
    }, ctx);
    try {
      const result = await http.request(
        op.method as 'get',
        (rawPath ?? t.path) as never,
        {
          params: { query, path: input.path ?? {}, header } as never,
          ...(body !== undefined ? { body: body as never } : {}),
          ...(body !== undefined ? { bodySerializer: bodySerializerFor(op) } : {}),
          querySerializer: querySerializerFor(op) as never,
          pathSerializer: pathSerializerFor(op),
          parseAs,
          fetch: fetchForCall,
          headers: {
            ...options.headers,
            ...callOptions.headers,
            ...(body !== undefined && op.body && kind !== 'multipart'
              ? { 'Content-Type': op.body.mediaType }
              : {}),
          },
        } as never,
      );
      const { response } = result as { response: Response };
      const payload =
        (result as { data?: unknown; error?: unknown }).data ??
        (result as { error?: unknown }).error;
      return { ctx, url, response, payload };
    } catch (error) {
      if (error instanceof DataApiError) throw error;
      const cause =
        error instanceof Error
          ? error.cause instanceof Error
            ? `${error.message}: ${error.cause.message}`
            : error.message
          : String(error);
      if (timedOut(ctx))
        fail(t, ctx, url, {
          outcome: 'timeout',
          causeMessage: `no complete response within ${ctx.timeoutMs} ms`,
        });
      if (callOptions.signal?.aborted)
        fail(t, ctx, url, { outcome: 'aborted', causeMessage: cause });
      fail(t, ctx, url, { outcome: 'network_error', causeMessage: cause });
    }
  }

  function httpFailure(
    t: Target,
    ctx: CallContext,
    url: string,
    response: Response,
    payload: unknown,
  ): never {
    const n = normalise(t.op, payload);
    const code = n.status.code;
    const { outcome, meaning } = outcomeOf(model, t.op, code);
    fail(t, ctx, url, {
      httpStatus: response.status,
      outcome: outcome && outcome !== 'ok' ? outcome : outcomeOfHttpStatus(response.status),
      ...(code !== undefined ? { businessCode: code } : {}),
      ...(meaning !== undefined ? { meaning } : {}),
      ...(n.status.description !== undefined ? { description: n.status.description } : {}),
      ...(payload !== undefined && payload !== '' ? { body: excerpt(payload, 300) } : {}),
    });
  }

  async function finish(t: Target, sent: Awaited<ReturnType<typeof send>>): Promise<ClientResult> {
    const { ctx, url, response } = sent;
    let payload = sent.payload;
    if (typeof payload === 'string' && payload !== '' && isJsonLike(response, t.op)) {
      try {
        payload = JSON.parse(payload);
      } catch {
        if (response.ok)
          fail(t, ctx, url, {
            httpStatus: response.status,
            outcome: 'invalid_response',
            causeMessage: 'the body is not JSON',
            body: excerpt(payload, 300),
          });
      }
    }
    if (payload === '') payload = undefined;
    if (!response.ok) httpFailure(t, ctx, url, response, payload);
    const n = normalise(t.op, payload);
    const group = codeGroupOf(model, t.op);
    if (group && t.op.envelope) {
      if (n.status.code === undefined)
        fail(t, ctx, url, {
          httpStatus: response.status,
          outcome: 'invalid_response',
          causeMessage: `no business status code in ${t.op.envelope.statusKey}`,
          body: excerpt(payload, 300),
        });
      if (n.status.code !== group.successCode) {
        const { outcome, meaning } = outcomeOf(model, t.op, n.status.code);
        fail(t, ctx, url, {
          httpStatus: response.status,
          businessCode: n.status.code,
          outcome: outcome ?? 'service_error',
          meaning: meaning ?? `code not declared in group ${group.name}`,
          ...(n.status.description !== undefined ? { description: n.status.description } : {}),
        });
      }
    }
    return {
      data: n.data,
      status: n.status,
      httpStatus: response.status,
      headers: response.headers,
      attempts: ctx.attempts,
    };
  }

  return {
    model,
    async call(id, input = {}, callOptions = {}) {
      const t = targetOf(id);
      return finish(t, await send(t, input, callOptions, 'text'));
    },
    async callPath(id, path, query, callOptions = {}) {
      const t = targetOf(id);
      return finish(t, await send(t, { query }, callOptions, 'text', path));
    },
    async stream(id, input = {}, callOptions = {}) {
      const t = targetOf(id);
      const sent = await send(t, input, callOptions, 'stream');
      if (!sent.response.ok) {
        let payload = sent.payload;
        if (typeof payload === 'string') {
          try {
            payload = JSON.parse(payload);
          } catch {
            // keep the text
          }
        }
        httpFailure(t, sent.ctx, sent.url, sent.response, payload);
      }
      return readSse(
        sent.payload as ReadableStream<Uint8Array> | null,
        sent.response.status,
        sent.response.headers,
      );
    },
  };
}
