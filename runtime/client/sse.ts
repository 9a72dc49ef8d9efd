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

export function readSse(
  body: ReadableStream<Uint8Array> | null,
  httpStatus: number,
  headers: Headers,
): SseStream {
  const reader = body?.getReader();
  const decoder = new TextDecoder();
  const close = async () => {
    await reader?.cancel().catch(() => undefined);
  };
  async function* events(): AsyncGenerator<SseEvent> {
    if (!reader) return;
    let buffer = '';
    let data: string[] = [];
    let event = '';
    let id: string | undefined;
    let retry: number | undefined;
    let first = true;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        if (first && buffer.length > 0) {
          if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
          first = false;
        }
        let nl: RegExpExecArray | null;
        const lineEnd = /\r\n|\r(?!$)|\n/g;
        let start = 0;
        while ((nl = lineEnd.exec(buffer)) !== null) {
          const line = buffer.slice(start, nl.index);
          start = nl.index + nl[0].length;
          if (line === '') {
            if (data.length > 0) {
              yield {
                event: event || 'message',
                data: data.join('\n'),
                ...(id !== undefined ? { id } : {}),
                ...(retry !== undefined ? { retry } : {}),
              };
            }
            data = [];
            event = '';
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          let val = colon === -1 ? '' : line.slice(colon + 1);
          if (val.startsWith(' ')) val = val.slice(1);
          if (field === 'data') data.push(val);
          else if (field === 'event') event = val;
          else if (field === 'id' && !val.includes('\0')) id = val;
          else if (field === 'retry' && /^\d+$/.test(val)) retry = Number(val);
        }
        buffer = buffer.slice(start);
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
