/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the proxy's recording, and what
 * `contract --from-har` reads (from the proxy, a browser or another proxy). Keys are redacted in
 * URLs, headers and bodies before anything is written: a recorded exchange re-sent later gets the
 * key from DATAAPI_APPKEY, never from the file.
 */
import { readFile } from 'node:fs/promises';
import { writeWhole } from '../write-whole.ts';
import type { Redactor } from 'dataapi/runtime/shared';
import { headerOf, truncated, type Observed } from './observed.ts';
import { decodedBody } from './probe.ts';

interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: unknown[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string; encoding?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: unknown[];
    headers: HarHeader[];
    /** `_truncated`: the text is the first BODY_CAP bytes (or the answer broke off). */
    content: {
      size: number;
      mimeType: string;
      text?: string;
      encoding?: string;
      _truncated?: boolean;
    };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    /** Why no answer came (status 0), as browsers record a failed request. */
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

/**
 * A body as HAR text: UTF-8 text redacted as text; other bytes as base64 of the bytes with every
 * key's bytes replaced (latin1 maps bytes one to one, so nothing else changes).
 */
function bodyText(bytes: Buffer, redactor: Redactor): { text: string; encoding?: string } {
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return { text: redactor.text(text) };
  return {
    text: Buffer.from(redactor.text(bytes.toString('latin1')), 'latin1').toString('base64'),
    encoding: 'base64',
  };
}

function unbody(text: string | undefined, encoding: string | undefined): Buffer {
  if (text === undefined) return Buffer.alloc(0);
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

const harHeaders = (pairs: [string, string][], r: Redactor): HarHeader[] =>
  pairs.map(([name, value]) => ({ name, value: r.text(value) }));

export function harEntry(o: Observed, redactor: Redactor): HarEntry {
  const url = new URL(redactor.url(`${o.origin}${o.pathAndQuery}`));
  const reqType = headerOf(o.requestHeaders, 'content-type');
  const resType = headerOf(o.responseHeaders, 'content-type') ?? '';
  const reqBody = o.requestBody.length > 0 ? bodyText(o.requestBody, redactor) : undefined;
  // HAR holds the body as the client reads it (Content-Encoding undone), when it is whole.
  const cut = truncated(o);
  const decoded = cut ? undefined : decodedBody(o);
  const resBytes = decoded ?? o.responseBody;
  const resBody = bodyText(resBytes, redactor);
  return {
    startedDateTime: o.startedAt,
    time: Math.round(o.durationMs),
    request: {
      method: o.method.toUpperCase(),
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(o.requestHeaders, redactor),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(reqBody ? { postData: { mimeType: reqType ?? '', ...reqBody } } : {}),
      headersSize: -1,
      bodySize: o.requestSize,
    },
    response: {
      status: o.status ?? 0,
      statusText: o.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(o.responseHeaders, redactor),
      content: {
        size: cut ? o.responseSize : resBytes.length,
        mimeType: resType,
        ...(resBytes.length ? resBody : {}),
        ...(cut ? { _truncated: true } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: o.responseSize,
      ...(o.error ? { _error: redactor.text(o.error) } : {}),
    },
    cache: {},
    timings: { send: 0, wait: Math.round(o.durationMs), receive: 0 },
  };
}

export function harDocument(entries: HarEntry[], version: string): unknown {
  return { log: { version: '1.2', creator: { name: 'dataapi', version }, entries } };
}

/** Written whole (a reader never sees half a file). */
export async function writeHar(file: string, entries: HarEntry[], version: string): Promise<void> {
  await writeWhole(file, `${JSON.stringify(harDocument(entries, version), null, 2)}\n`);
}

export class HarError extends Error {}

/**
 * The exchanges of a HAR file. HAR's `content.text` is the decoded body (browsers record it so),
 * so any Content-Encoding header is dropped from what is judged.
 */
export async function readHar(file: string): Promise<Observed[]> {
  let doc: { log?: { entries?: HarEntry[] } };
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new HarError(`${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch (err) {
    throw new HarError(`${file}: not a HAR file (${(err as Error).message.split('\n')[0]})`);
  }
  const entries = doc?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError(`${file}: not a HAR file (no log.entries)`);
  return entries.map((e, i) => {
    let url: URL;
    try {
      url = new URL(e.request.url);
    } catch {
      throw new HarError(`${file}: entry ${i} has no absolute request URL`);
    }
    const pairsOf = (h: HarHeader[] | undefined): [string, string][] =>
      (h ?? []).filter((x) => !x.name.startsWith(':')).map((x) => [x.name, x.value]);
    const reqBody = unbody(e.request.postData?.text, e.request.postData?.encoding);
    const resBody = unbody(e.response.content?.text, e.response.content?.encoding);
    const failed = !e.response.status;
    return {
      startedAt: e.startedDateTime,
      durationMs: e.time ?? 0,
      method: e.request.method,
      origin: url.origin,
      pathAndQuery: `${url.pathname}${url.search}`,
      requestHeaders: pairsOf(e.request.headers),
      requestBody: reqBody,
      requestSize: reqBody.length,
      ...(failed
        ? { error: e.response._error ?? 'no response recorded' }
        : { status: e.response.status, statusText: e.response.statusText ?? '' }),
      responseHeaders: pairsOf(e.response.headers).filter(
        ([k]) => k.toLowerCase() !== 'content-encoding',
      ),
      responseBody: resBody,
      responseSize: e.response.content?._truncated
        ? Math.max(e.response.content.size, resBody.length + 1)
        : resBody.length,
    } satisfies Observed;
  });
}
