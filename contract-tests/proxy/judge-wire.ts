/**
 * How exchanges cross to a judging thread (judge-pool.ts -> judge-thread.ts): a batch is one
 * message whose exchanges hold their headers as flat name/value lists and their small bodies as
 * lengths in one buffer the batch moves over. A message's cost is per value it carries: header
 * pairs as two-element lists, and a moved buffer per body, cost the forwarding thread more than
 * all else it does for judging (bench/proxy-cpu.ts).
 */
import type { Observed } from './observed.ts';

/**
 * Bodies at least this long cross in memory of their own, moved rather than copied into the
 * batch's buffer (a copy of a large body would cost more than moving it).
 */
const OWN_FROM = 64 * 1024;

/** An exchange as it crosses: Observed with flat headers and bodies as lengths or own memory. */
export interface WireExchange {
  id: number;
  /** The keys to redact, sent when they changed since this thread's last job. */
  secrets?: string[];
  startedAt: string;
  durationMs: number;
  method: string;
  origin: string;
  pathAndQuery: string;
  requestHeaders: string[];
  requestBody: number | Uint8Array;
  requestSize: number;
  status?: number;
  statusText?: string;
  responseHeaders: string[];
  responseBody: number | Uint8Array;
  responseSize: number;
  error?: string;
  gatewayStatus?: number;
  aborted?: boolean;
}

export interface WireBatch {
  jobs: WireExchange[];
  /** The small bodies, in the order of the jobs (request, then response). */
  bytes: ArrayBuffer;
}

export interface WireJob {
  id: number;
  observed: Observed;
  secrets?: string[];
}

const flat = (pairs: [string, string][]): string[] => {
  const out = new Array<string>(pairs.length * 2);
  for (let i = 0; i < pairs.length; i++) {
    out[2 * i] = pairs[i]![0];
    out[2 * i + 1] = pairs[i]![1];
  }
  return out;
};

const pairsOf = (raw: string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
};

/**
 * One message's worth of jobs, and the memory it moves. With `keep`, the bodies stay with the
 * caller too (copied); otherwise the caller's bodies are emptied (their memory crossed).
 */
export function encodeBatch(
  jobs: WireJob[],
  keep: boolean,
): { batch: WireBatch; transfer: ArrayBuffer[] } {
  let small = 0;
  for (const { observed: o } of jobs) {
    if (o.requestBody.length < OWN_FROM) small += o.requestBody.length;
    if (o.responseBody.length < OWN_FROM) small += o.responseBody.length;
  }
  const bytes = Buffer.allocUnsafeSlow(small);
  const transfer: ArrayBuffer[] = [bytes.buffer as ArrayBuffer];
  let at = 0;
  const body = (b: Buffer): number | Uint8Array => {
    if (b.length < OWN_FROM) {
      at += b.copy(bytes, at);
      return b.length;
    }
    const [own, memory] = movable(b, keep);
    transfer.push(memory);
    return own;
  };
  const wire = jobs.map(({ id, observed: o, secrets }): WireExchange => {
    // Set one by one: optional parts spread in cost microseconds per exchange.
    const w: WireExchange = {
      id,
      startedAt: o.startedAt,
      durationMs: o.durationMs,
      method: o.method,
      origin: o.origin,
      pathAndQuery: o.pathAndQuery,
      requestHeaders: flat(o.requestHeaders),
      requestBody: body(o.requestBody),
      requestSize: o.requestSize,
      responseHeaders: flat(o.responseHeaders),
      responseBody: body(o.responseBody),
      responseSize: o.responseSize,
    };
    if (secrets) w.secrets = secrets;
    if (o.status !== undefined) w.status = o.status;
    if (o.statusText !== undefined) w.statusText = o.statusText;
    if (o.error !== undefined) w.error = o.error;
    if (o.gatewayStatus !== undefined) w.gatewayStatus = o.gatewayStatus;
    if (o.aborted !== undefined) w.aborted = o.aborted;
    if (!keep) o.requestBody = o.responseBody = EMPTY;
    return w;
  });
  return { batch: { jobs: wire, bytes: bytes.buffer as ArrayBuffer }, transfer };
}

const EMPTY = Buffer.alloc(0);

/** The jobs of a batch, as the judging thread judges them (its own copy: bodies in place). */
export function decodeBatch(batch: WireBatch): WireJob[] {
  let at = 0;
  const body = (b: number | Uint8Array): Buffer => {
    if (typeof b !== 'number') return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    at += b;
    return Buffer.from(batch.bytes, at - b, b);
  };
  return batch.jobs.map((w) => {
    const o: Observed = {
      startedAt: w.startedAt,
      durationMs: w.durationMs,
      method: w.method,
      origin: w.origin,
      pathAndQuery: w.pathAndQuery,
      requestHeaders: pairsOf(w.requestHeaders),
      requestBody: body(w.requestBody),
      requestSize: w.requestSize,
      responseHeaders: pairsOf(w.responseHeaders),
      responseBody: body(w.responseBody),
      responseSize: w.responseSize,
    };
    if (w.status !== undefined) o.status = w.status;
    if (w.statusText !== undefined) o.statusText = w.statusText;
    if (w.error !== undefined) o.error = w.error;
    if (w.gatewayStatus !== undefined) o.gatewayStatus = w.gatewayStatus;
    if (w.aborted !== undefined) o.aborted = w.aborted;
    const job: WireJob = { id: w.id, observed: o };
    if (w.secrets) job.secrets = w.secrets;
    return job;
  });
}

/**
 * A large body as memory that can be moved: its own when it holds all of it (as CappedBody's
 * do) and the caller need not keep it, else a copy.
 */
function movable(body: Buffer, keep: boolean): [Uint8Array, ArrayBuffer] {
  if (
    !keep &&
    body.byteOffset === 0 &&
    body.buffer instanceof ArrayBuffer &&
    body.byteLength === body.buffer.byteLength
  )
    return [body, body.buffer];
  const own = new ArrayBuffer(body.length);
  const copy = Buffer.from(own);
  body.copy(copy);
  return [copy, own];
}
