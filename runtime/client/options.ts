/** What a caller gives the client and gets back: the options of a client and of one call. */
import type { ResponseStatus } from './envelope.ts';
import type { RateLimitOptions } from './rate-limit.ts';
import type { RetryOptions } from './retry.ts';
import type { FetchLike } from './transport.ts';
import type { OnDeprecated } from './deprecation.ts';

export type KeyLocation = 'query' | 'header' | 'body' | 'cookie' | 'bearer' | 'basic';

export interface ClientOptions {
  /** The service's base URL (the `{base_url}` of the description). */
  baseUrl: string;
  /**
   * The credential (the application key; `user:password` for HTTP Basic). Preview variants never
   * send it.
   */
  appkey?: string | undefined;
  /** Credentials per security scheme name, where one differs from `appkey`. */
  credentials?: Record<string, string> | undefined;
  /** A fetch implementation (default: global fetch). */
  fetch?: FetchLike | undefined;
  /** Per attempt, including reading the body (default 30 s; 0 disables). */
  timeoutMs?: number | undefined;
  /** Retry policy; `false` disables retries. */
  retry?: RetryOptions | false | undefined;
  /** Client-side pacing under each operation's rate-limit windows; `false` disables it. */
  rateLimit?: RateLimitOptions | false | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Where to send the key when an operation accepts several transports (default: the first). */
  keyIn?: KeyLocation | undefined;
  /**
   * Told once per deprecated operation this client calls (the description deprecates it, or an
   * answer carries `Deprecation`). Default: one `process.emitWarning` per operation; `false`: silent.
   */
  onDeprecated?: OnDeprecated | false | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  headers?: Record<string, string> | undefined;
  retry?: RetryOptions | false | undefined;
  keyIn?: KeyLocation | undefined;
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
