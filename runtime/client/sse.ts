/**
 * Server-sent events (WHATWG HTML, "event stream interpretation") read from a response body as an
 * async iterator. Leaving the loop early cancels the body, which closes the connection.
 */

export interface SseEvent {
  /** The event type (`message` when the server names none). */
  event: string;
  /** The data lines joined with "\n". */
  data: string;
  /** The last event id seen on the stream, if any. */
  id?: string;
  /** The reconnection time the server asked for, if any. */
  retry?: number;
}

export interface SseStream extends AsyncIterable<SseEvent> {
  httpStatus: number;
  headers: Headers;
  /** Stops reading and closes the connection. */
  close(): Promise<void>;
}

/** The lines of a body (CRLF, CR or LF), decoded as UTF-8 without a leading BOM. */
async function* linesOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let first = true;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    if (first && buffer.length > 0) {
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      first = false;
    }
    // A CR at the end of the buffer may be the first half of a CRLF: wait for the next chunk.
    const lineEnd = /\r\n|\r(?!$)|\n/g;
    let start = 0;
    let nl: RegExpExecArray | null;
    while ((nl = lineEnd.exec(buffer)) !== null) {
      yield buffer.slice(start, nl.index);
      start = nl.index + nl[0].length;
    }
    buffer = buffer.slice(start);
  }
}

/** The event stream interpretation: fields accumulate until a blank line dispatches them. */
class EventBuilder {
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private retry: number | undefined;

  /** Takes one line; returns the event a blank line completes. */
  line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let val = colon === -1 ? '' : line.slice(colon + 1);
    if (val.startsWith(' ')) val = val.slice(1);
    if (field === 'data') this.data.push(val);
    else if (field === 'event') this.event = val;
    else if (field === 'id' && !val.includes('\0')) this.id = val;
    else if (field === 'retry' && /^\d+$/.test(val)) this.retry = Number(val);
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const out =
      this.data.length > 0
        ? {
            event: this.event || 'message',
            data: this.data.join('\n'),
            ...(this.id !== undefined ? { id: this.id } : {}),
            ...(this.retry !== undefined ? { retry: this.retry } : {}),
          }
        : undefined;
    this.data = [];
    this.event = '';
    return out;
  }
}

export function readSse(
  body: ReadableStream<Uint8Array> | null,
  httpStatus: number,
  headers: Headers,
): SseStream {
  const reader = body?.getReader();
  const close = async () => {
    await reader?.cancel().catch(() => undefined);
  };
  async function* events(): AsyncGenerator<SseEvent> {
    if (!reader) return;
    const builder = new EventBuilder();
    try {
      for await (const line of linesOf(reader)) {
        const event = builder.line(line);
        if (event) yield event;
      }
    } finally {
      await close();
    }
  }
  const iterable = events();
  return {
    httpStatus,
    headers,
    close,
    [Symbol.asyncIterator]: () => iterable,
  };
}
