/**
 * How exchanges cross to a judging thread (judge-pool.ts -> judge-thread.ts), and their judgements
 * back: a batch is one message whose exchanges are one JSON text (headers as flat name/value
 * lists) and whose small bodies are lengths in one buffer the batch moves over. A message's cost
 * is per value it carries: structured cloning a graph of objects cost both threads two to three
 * times what writing and parsing the same graph as JSON does (bench/proxy-cpu.ts), and header
 * pairs as two-element lists, or a moved buffer per body, more still.
 */
import type { JudgedExchange } from './judge.ts';
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
  /** A small body's length in the batch's buffer, or a large one's place among its own. */
  requestBody: number | { own: number };
  requestSize: number;
  status?: number;
  statusText?: string;
  responseHeaders: string[];
  responseBody: number | { own: number };
  responseSize: number;
  error?: string;
  gatewayStatus?: number;
  aborted?: boolean;
}

export interface WireBatch {
  /** The jobs, WireExchange[] as JSON. */
  text: string;
  /** The small bodies, in the order of the jobs (request, then response). */
  bytes: ArrayBuffer;
  /** The large bodies, each in memory of its own. */
  own: Uint8Array[];
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
  const own: Uint8Array[] = [];
  let at = 0;
  const body = (b: Buffer): number | { own: number } => {
    if (b.length < OWN_FROM) {
      at += b.copy(bytes, at);
      return b.length;
    }
    const [view, memory] = movable(b, keep);
    transfer.push(memory);
    return { own: own.push(view) - 1 };
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
  return {
    batch: { text: JSON.stringify(wire), bytes: bytes.buffer as ArrayBuffer, own },
    transfer,
  };
}

const EMPTY = Buffer.alloc(0);

export type JudgeReply = {
  id: number;
  judged?: JudgedExchange;
  error?: string;
  /** Keys the request carried that its judge had not seen before (judge-one.ts). */
  keys?: string[];
};

/**
 * A batch's judgements going back. Most are counts only (no finding, no record kept): those cross
 * as one JSON text, read on the forwarding thread at a third of a clone's cost. The others are
 * cloned: a finding may hold what JSON would not keep as it is (an undefined field, a NaN).
 */
export interface WireReplies {
  /** JudgeReply[] as JSON. */
  plain: string;
  rich: JudgeReply[];
}

export function encodeReplies(replies: JudgeReply[]): WireReplies {
  const plain: JudgeReply[] = [];
  const rich: JudgeReply[] = [];
  for (const r of replies)
    (r.judged && r.judged.findings.length === 0 && r.judged.record === undefined
      ? plain
      : rich
    ).push(r);
  return { plain: JSON.stringify(plain), rich };
}

export const decodeReplies = (m: WireReplies): JudgeReply[] => [
  ...(JSON.parse(m.plain) as JudgeReply[]),
  ...m.rich,
];

/** The jobs of a batch, as the judging thread judges them (its own copy: bodies in place). */
export function decodeBatch(batch: WireBatch): WireJob[] {
  let at = 0;
  const body = (b: number | { own: number }): Buffer => {
    if (typeof b !== 'number') {
      const own = batch.own[b.own]!;
      return Buffer.from(own.buffer, own.byteOffset, own.byteLength);
    }
    at += b;
    return Buffer.from(batch.bytes, at - b, b);
  };
  return (JSON.parse(batch.text) as WireExchange[]).map((w) => {
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
