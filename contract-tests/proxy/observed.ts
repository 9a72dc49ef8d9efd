/**
 * One exchange as the proxy saw it (or a HAR file recorded it): the raw material traffic is judged
 * from. Bodies are kept up to a cap; past it the body is marked truncated and the checks that
 * need the whole body skip it (status and headers are still judged).
 */

/** Bytes of each body kept for judging and recording; the traffic itself is never cut. */
export const BODY_CAP = 1024 * 1024;

export interface Observed {
  /** ISO time the request arrived. */
  startedAt: string;
  durationMs: number;
  method: string;
  /** Origin of the deployment the exchange went to (`https://staging.example.com`). */
  origin: string;
  /** Path and query as the client sent them. */
  pathAndQuery: string;
  /** Header pairs as sent, names in their case, duplicates kept. */
  requestHeaders: [string, string][];
  requestBody: Buffer;
  /** Bytes the request body had in all (more than requestBody holds when truncated). */
  requestSize: number;
  status?: number;
  statusText?: string;
  responseHeaders: [string, string][];
  /** The response body as sent (still content-encoded, e.g. gzip). */
  responseBody: Buffer;
  responseSize: number;
  /** Why no answer came from the deployment (the proxy then answered 502 or 504 itself). */
  error?: string;
  /** The status the proxy answered with itself when the deployment gave none. */
  gatewayStatus?: number;
  /** The answer stopped early (client or upstream hung up): body checks skip it. */
  aborted?: boolean;
}

/**
 * Collects a stream's chunks up to BODY_CAP while counting every byte. The chunks are kept as
 * they came (node:http never reuses them) and joined once, at the end.
 */
export class CappedBody {
  private chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  constructor(private cap = BODY_CAP) {}
  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.kept >= this.cap) return;
    const part =
      chunk.length + this.kept > this.cap ? chunk.subarray(0, this.cap - this.kept) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  /**
   * The kept bytes. `own`: in a Buffer of their own (never a view on node's shared slab or on a
   * read's memory), for bodies kept long or moved to another thread whole; otherwise, for a body
   * copied into the judging batch within milliseconds, a read's own chunk is returned as it is.
   */
  bytes(own = true): Buffer {
    const chunks = this.chunks;
    this.chunks = [];
    if (this.kept === 0) return EMPTY;
    if (!own && chunks.length === 1) return chunks[0]!;
    const out = Buffer.allocUnsafeSlow(this.kept);
    let at = 0;
    for (const c of chunks) at += c.copy(out, at);
    return out;
  }
}

const EMPTY = Buffer.alloc(0);

let isoSecond = NaN;
let isoHead = '';

/**
 * `new Date(ms).toISOString()` for a whole number of milliseconds, the date part formatted once
 * per second: formatting a date cost the forwarding thread about 1.4 µs per exchange.
 */
export function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoHead = new Date(second * 1000).toISOString().slice(0, -4);
  }
  const rest = ms - second * 1000;
  return `${isoHead}${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}Z`;
}

export const headerOf = (pairs: [string, string][], name: string): string | undefined =>
  pairs.find(([k]) => k.toLowerCase() === name)?.[1];

/** The response body is not whole: the checks that read it skip the exchange. */
export const truncated = (o: Observed) =>
  o.aborted === true || o.responseBody.length < o.responseSize;

/** Parsed paths and queries of recent requests: traffic sends the same few over and over. */
const urls = new Map<string, URL>();
const URLS_MAX = 2000;

/**
 * The request's path and query, parsed once per distinct text (routing, the keys it carried and
 * its parameters all read it). Shared between exchanges: only to be read.
 */
export function requestUrlOf(o: Observed): URL {
  let url = urls.get(o.pathAndQuery);
  if (!url) {
    // Paths with ids in them never end: the memo starts again rather than grow.
    if (urls.size >= URLS_MAX) urls.clear();
    urls.set(o.pathAndQuery, (url = new URL(o.pathAndQuery, 'http://x')));
  }
  return url;
}
