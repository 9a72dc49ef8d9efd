/** The variants of an operation a contract run tests, and the record of each request it sends. */
export type Variant = 'main' | 'preview';
export type CheckStatus = 'passed' | 'failed' | 'skipped';

/** One HTTP request as a report may show it (the key redacted). */
export interface RequestSummary {
  method: string;
  /** Absolute URL, key redacted (`appkey=***`). */
  url: string;
  /** What the request is for, e.g. `valid example "default"`, `query pageSize=21 (maximum 20)`. */
  purpose: string;
}

/** One request and what came back: the raw material of the checks. */
export interface ExchangeRecord {
  request: RequestSummary;
  /** HTTP status, absent when no response arrived. */
  status?: number;
  contentType?: string;
  /** Business code read from the envelope, when there is one. */
  businessCode?: number;
  /**
   * Why the target refused the request, when it says so apart from the body (`x-dataapi-reason`:
   * dataapi's mock and servers, whose body is the description's error example).
   */
  reason?: string;
  /** Short excerpt of the response body. */
  excerpt?: string;
  /** Why no response arrived: `timeout after 500 ms`, `ECONNREFUSED`, `request budget exhausted`. */
  error?: string;
  durationMs: number;
  /** Time spent waiting for Retry-After on 429 answers before this response. */
  waitedMs: number;
  /** Number of 429 answers that were retried. */
  retries: number;
  /** Parameters (and body fields, as `body.<name>`) the request carried. */
  parameters: string[];
}
