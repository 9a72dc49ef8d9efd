/**
 * A built request serialised for the wire: the path in its parameters' styles, the query, the
 * headers with the key where the operation takes it, and the body as JSON, form, XML or multipart.
 */
import {
  keyTransport,
  concreteMedia,
  unsentQueryNames,
  withoutClashes,
  type Obj,
  type Operation,
  type Parameter,
  type SchemaRoot,
} from 'dataapi/model';
import { serializeArrayParam, serializeObjectParam } from 'openapi-fetch';
import { hashText } from 'dataapi/runtime/sampler';
import {
  chooseRequirement,
  encodeForm,
  isXmlMedia,
  toXml,
  writeCredentials,
} from 'dataapi/runtime/shared';
import { framing, mustSend } from './fetch-headers.ts';
import { xmlFault } from 'dataapi/runtime/xml';
import type { OutgoingRequest } from './http.ts';
import { emptySegment } from './path-values.ts';
import { carried, WRONG_KEY, type KeyMode, type RequestSpec } from './requests.ts';
import { withRequiredKeys } from './required-keys.ts';
import { encodedBody } from './content-coding.ts';

export interface SerialiseOptions {
  /** Path template to use (the preview path for the preview variant). */
  path: string;
  key: KeyMode;
  appkey: string;
  method?: string;
  /** Override the body's media type (415 probes), sending the body as JSON text. */
  contentType?: string;
  purpose: string;
  /** The model, for bodies written by their schema (XML by its `xml` hints); JSON text without it. */
  model?: SchemaRoot;
}

export function serialise(op: Operation, spec: RequestSpec, o: SerialiseOptions): OutgoingRequest {
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  const named = (list: Parameter[]) => new Map(list.map((p) => [p.name, p]));
  const params = {
    path: named(op.parameters.path),
    query: named(op.parameters.query),
    header: named(op.parameters.header),
    cookie: named(op.parameters.cookie),
  };
  // Properties of a query object another parameter also writes are never sent (query-objects.ts).
  const clashes = o.model ? unsentQueryNames(o.model, op) : undefined;
  for (const [name, value] of Object.entries(spec.query))
    query.push(
      ...queryPairs(name, withoutClashes(value, clashes?.get(name)), params.query.get(name)),
    );
  // Content-Length (Host, Connection) is the transport's to write from the body: a sampled
  // value sent instead cut bodies short and hung the server (corpus Mojaloop).
  for (const [name, value] of Object.entries(spec.header))
    if (!framing(name)) headers[name] = simple(name, value, params.header.get(name));
  // Cookie parameters and a cookie key, joined into one Cookie header below.
  const cookies = Object.entries(spec.cookie).map(
    ([name, value]) =>
      `${name}=${encodeURIComponent(simple(name, value, params.cookie.get(name)))}`,
  );
  let body: unknown = spec.omitBody ? undefined : structuredClone(spec.body);

  // The key: the body transport when the example carries the body key, else the first other one.
  const bodyKey = keyTransport(op.auth, 'body');
  const bodyObj =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Obj) : undefined;
  const useBodyKey = !!bodyKey && !!bodyObj && bodyKey.name in bodyObj;
  if (bodyKey && bodyObj) delete bodyObj[bodyKey.name];
  if (o.key !== 'none') {
    // Every scheme of one security requirement (AND), written the scheme's way (Basic, Bearer).
    const requirement =
      useBodyKey && bodyKey
        ? [bodyKey]
        : withRequiredKeys(op, chooseRequirement(op.auth, undefined));
    const keyValue = o.key === 'wrong' ? WRONG_KEY : o.appkey;
    writeCredentials(requirement, () => keyValue, {
      query: (name, value) => query.push([encodeURIComponent(name), encodeURIComponent(value)]),
      header: (name, value) => (headers[name === 'Authorization' ? 'authorization' : name] = value),
      cookie: (name, value) => cookies.push(`${name}=${encodeURIComponent(value)}`),
      // Only where the example carries the body key; other requirements go without it.
      body: (name, value) => {
        if (useBodyKey && bodyObj) bodyObj[name] = value;
      },
    });
  }
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');

  let path = o.path;
  for (const [name, value] of Object.entries(spec.path))
    path = path.split(`{${name}}`).join(pathValue(name, value, params.path.get(name)));
  // Names and values are percent-encoded already (queryPairs; the credential below).
  const qs = query.map(([k, v]) => `${k}=${v}`).join('&');

  let payload: string | Uint8Array<ArrayBuffer> | undefined;
  const method = (o.method ?? op.method).toLowerCase();
  // GET and HEAD carry no body (fetch refuses one): a wrong-method probe sends the rest.
  if (body !== undefined && op.body && method !== 'get' && method !== 'head') {
    if (o.contentType !== undefined) {
      headers['content-type'] = o.contentType;
      payload = JSON.stringify(body);
    } else if (op.body.kind === 'multipart' || op.body.kind === 'form') {
      if (op.body.kind === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        // Per the body's encoding (deepObject, explode, delimited); object fields never as JSON.
        payload = encodeForm((body ?? {}) as Obj, op.body.encoding);
      } else {
        const form = multipart(multipartParts(body, op.body.fileFields));
        headers['content-type'] = form.contentType;
        payload = form.body;
      }
    } else if (op.body.kind === 'json') {
      headers['content-type'] = concreteMedia(op.body.mediaType);
      payload = JSON.stringify(body);
    } else {
      // A range (`image/*`, `*/*`) is no Content-Type: a type in it is sent.
      headers['content-type'] = concreteMedia(op.body.mediaType);
      // An XML body is XML: a text that is not (a string sample) is the text of one element.
      const xml = o.model !== undefined && isXmlMedia(op.body.mediaType);
      payload =
        typeof body === 'string' && (!xml || xmlFault(body) === undefined)
          ? body
          : xml
            ? toXml(o.model!, op.body.schema, body)
            : JSON.stringify(body);
    }
  }
  if (payload !== undefined) payload = encodedBody(headers, payload);
  return {
    method,
    pathAndQuery: qs ? `${path}?${qs}` : path,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    purpose: o.purpose,
    parameters: carried(spec),
  };
}

/** A path value in its parameter's style (simple `a,b`, label `.a.b`, matrix `;id=a,b`). */
function pathValue(name: string, value: unknown, p: Parameter | undefined): string {
  if (jsonContent(p)) return encodeURIComponent(JSON.stringify(value));
  const style = (p?.style ?? 'simple') as 'simple' | 'label' | 'matrix';
  const explode = p?.explode ?? false;
  if (Array.isArray(value)) return serializeArrayParam(name, value.map(scalar), { style, explode });
  if (typeof value === 'object' && value !== null)
    return serializeObjectParam(name, value as Record<string, unknown>, { style, explode });
  const text = encodeURIComponent(scalar(value));
  return style === 'label' ? `.${text}` : style === 'matrix' ? `;${name}=${text}` : text;
}

/** Whether a parameter is described by `content` of a JSON media type. */
const jsonContent = (p: Parameter | undefined) =>
  p?.mediaType !== undefined && /json/i.test(p.mediaType);

/** A header value in the simple style: `a,b` for a list, `k,v` (or `k=v` exploded) for an object. */
function simple(name: string, value: unknown, p: Parameter | undefined): string {
  if (jsonContent(p)) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Obj);
    return p?.explode
      ? entries.map(([k, v]) => `${k}=${scalar(v)}`).join(',')
      : entries.flatMap(([k, v]) => [k, scalar(v)]).join(',');
  }
  return scalar(value);
}

/**
 * A value as parameter text. Text has no null: an empty one, as form fields are written
 * (runtime/shared/form.ts) and as the server reads it where the schema admits null (Ajv's
 * coercion); the text "null" was refused by every `anyOf: [boolean, null]` and date-time.
 */
function scalar(value: unknown): string {
  if (value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A query parameter as `name=value` pairs, the values already percent-encoded. */
function queryPairs(name: string, value: unknown, p: Parameter | undefined): [string, string][] {
  const enc = (v: unknown) => encodeURIComponent(scalar(v));
  const key = encodeURIComponent(name);
  // A parameter described by `content` is one value in its media type: JSON text, never the
  // form style (`?q=1&q=2` for `[1,2]` read back as strings: corpus superset.apache.local).
  if (jsonContent(p)) return [[key, encodeURIComponent(JSON.stringify(value))]];
  // A list or object not exploded is one value whose delimiter stays literal: an encoded one
  // (`%2C`) is part of an item (RFC 3986), which is how the server tells `a,b` from `["a,b"]`.
  const delimiter =
    p?.style === 'spaceDelimited' ? '%20' : p?.style === 'pipeDelimited' ? '|' : ',';
  if (Array.isArray(value)) {
    const explode = p?.explode ?? true;
    return explode ? value.map((v) => [key, enc(v)]) : [[key, value.map(enc).join(delimiter)]];
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Obj);
    if (p?.style === 'deepObject')
      return entries.map(([k, v]) => [encodeURIComponent(`${name}[${k}]`), enc(v)]);
    if (p?.explode ?? true) return entries.map(([k, v]) => [encodeURIComponent(k), enc(v)]);
    return [[key, entries.flatMap(([k, v]) => [encodeURIComponent(k), enc(v)]).join(',')]];
  }
  return [[key, enc(value)]];
}

const MEDIA: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  json: 'application/json',
  png: 'image/png',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** File parts sent for a file field example: name, media type and bytes (the round trip compares names). */
export function fileFromExample(
  value: unknown,
  index: number,
): { name: string; type: string; text: string } {
  const text = typeof value === 'string' ? value : '';
  const m = /^<binary content of (.+)>$/.exec(text);
  const name = m?.[1] ?? `document-${index + 1}.txt`;
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const bytes = `dataapi contract test file ${index + 1}: ${name}\n`;
  return { name, type: MEDIA[ext] ?? 'application/octet-stream', text: bytes };
}

export type Part = { name: string; value?: string; file?: string; type?: string; text?: string };

/** The parts of a multipart body: fields as text, file fields as files. */
export function multipartParts(body: unknown, fileFields: string[]): Part[] {
  const parts: Part[] = [];
  if (typeof body !== 'object' || body === null) return parts;
  let n = 0;
  for (const [name, value] of Object.entries(body as Obj)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (fileFields.includes(name)) {
        const f = fileFromExample(v, n++);
        parts.push({ name, file: f.name, type: f.type, text: f.text });
      } else parts.push({ name, value: v === null ? '' : scalar(v) }); // a form has no null
    }
  }
  return parts;
}

/** A name in a part header, escaped as browsers do (WHATWG: `"` and line breaks). */
const quoted = (s: string) =>
  `"${s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * multipart/form-data with a boundary derived from the content (FormData's is random), so the
 * same request is the same bytes every time (fuzzing replays byte for byte).
 */
function multipart(parts: Part[]): { contentType: string; body: Uint8Array<ArrayBuffer> } {
  const pieces = parts.map((p) =>
    p.file !== undefined
      ? `Content-Disposition: form-data; name=${quoted(p.name)}; filename=${quoted(p.file)}\r\nContent-Type: ${p.type}\r\n\r\n${p.text}`
      : `Content-Disposition: form-data; name=${quoted(p.name)}\r\n\r\n${p.value}`,
  );
  const all = pieces.join('');
  let boundary = `----dataapi-${hashText(all).toString(16).padStart(8, '0')}`;
  while (all.includes(boundary)) boundary += 'x';
  const text = pieces.map((x) => `--${boundary}\r\n${x}\r\n`).join('') + `--${boundary}--\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: new TextEncoder().encode(text),
  };
}
