/** Parameters, request bodies and responses of one operation, normalised. */
import type {
  BodyKind,
  NamedExample,
  Parameter,
  ParameterLocation,
  Parameters,
  FormStyle,
  RequestBody,
  Response,
  ResponseKind,
} from '../../model/types.ts';
import { NameAllocator, toIdentifier } from '../../model/identifiers.ts';
import {
  allParameters,
  isXmlMedia,
  noParameters,
  PARAMETER_LOCATIONS,
} from '../../model/queries.ts';
import { isMediaKey } from '../../model/media.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { refPointer, resolve } from '../../model/refs.ts';
import type { Findings } from './findings.ts';
import { splitPathKey, templateName } from './paths.ts';
import { escapeToken, splitPointer } from '../../model/pointer.ts';
import type { SchemaConverter } from './schema.ts';

/** OpenAPI says these header parameters are ignored: the transport owns them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** An HTTP token (RFC 9110 §5.6.2): what a field name, and a cookie name, must be. */
/** An HTTP field name or cookie name (RFC 9110 §5.6.2 token). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface ParameterContext {
  /** The operation's pointer (`/paths/~1a/get`). */
  pointer: string;
  /** Query pairs the path key fixes (`/responses?beta=true`). */
  fixed: [string, string][];
  findings: Findings;
}

/** Where a parameter (or its `$ref` target) is, for findings. */
function parameterPointer(raw: unknown, list: string, index: number): string {
  const target = refPointer(raw);
  return target !== undefined && target.startsWith('/') ? target : `${list}/${index}`;
}

export function readParameters(
  doc: Obj,
  pathItem: Obj,
  op: Obj,
  conv: SchemaConverter,
  ctx: ParameterContext,
): Parameters {
  const byKey = new Map<string, Obj>();
  const located = new Map<Obj, string>();
  const itemPointer = ctx.pointer.slice(0, ctx.pointer.lastIndexOf('/'));
  for (const [list, at] of [
    [pathItem['parameters'], `${itemPointer}/parameters`],
    [op['parameters'], `${ctx.pointer}/parameters`],
  ] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw: unknown, index: number) => {
      const p = resolve(doc, raw);
      if (!isObject(p) || typeof p['name'] !== 'string') return;
      // Header names are case-insensitive: an operation's `x-trace` overrides a path's `X-Trace`.
      const name = p['in'] === 'header' ? p['name'].toLowerCase() : p['name'];
      byKey.set(`${p['in']}:${name}`, p);
      located.set(p, parameterPointer(raw, at, index));
    });
  }
  const out = noParameters();
  for (const p of byKey.values()) {
    const where = p['in'] as ParameterLocation;
    if (!PARAMETER_LOCATIONS.includes(where)) continue;
    const name = p['name'] as string;
    if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    // Notion's GET /v1/pages/{id}: a header named "" (a Postman conversion's leftover) made
    // fetch throw for every request the suite sent; no request can carry it.
    if ((where === 'header' || where === 'cookie') && !TOKEN.test(name)) {
      ctx.findings.add(
        'header-name-invalid',
        located.get(p) ?? ctx.pointer,
        `${where} parameter ${JSON.stringify(name)} is no ${where === 'header' ? 'HTTP field' : 'cookie'} name: ignored`,
      );
      continue;
    }
    let schema: unknown = p['schema'];
    let mediaType: string | undefined;
    if (schema === undefined && isObject(p['content'])) {
      const [type, first] = Object.entries(p['content'])[0] ?? [];
      schema = isObject(first) ? first['schema'] : undefined;
      mediaType = type;
    }
    const formLike = where === 'query' || where === 'cookie';
    const style = typeof p['style'] === 'string' ? p['style'] : formLike ? 'form' : 'simple';
    place(out, {
      name,
      in: where,
      required: where === 'path' || p['required'] === true,
      schema: conv.convert(schema ?? {}, `${located.get(p) ?? ctx.pointer}/schema`),
      style,
      explode: typeof p['explode'] === 'boolean' ? p['explode'] : style === 'form',
      deprecated: p['deprecated'] === true,
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(firstExample(doc, p) !== undefined ? { example: firstExample(doc, p) } : {}),
      ...(mediaType !== undefined ? { mediaType } : {}),
      identifier: '',
    });
  }
  fixQuery(out, ctx);
  matchTemplate(out, ctx);
  // Stable order within a location: required first, then name.
  for (const where of PARAMETER_LOCATIONS)
    out[where].sort(
      (a: Parameter, b: Parameter) =>
        Number(b.required) - Number(a.required) || a.name.localeCompare(b.name, 'en'),
    );
  // Unique within the operation: `item-id` (path) and `item_id` (query) both want `itemId`.
  const identifiers = new NameAllocator();
  for (const p of allParameters(out))
    p.identifier = identifiers.take(toIdentifier(p.name, 'param'));
  return out;
}

/** Files a parameter under its location (the list's type is the location's). */
function place(out: Parameters, p: Parameter): void {
  (out[p.in] as Parameter[]).push(p);
}

/**
 * The path key's query pairs as required parameters that take only their value; a pair whose value
 * is a template expression (`?src={src}`: go2rtc) is the query parameter it names, a parameter of
 * that name declared elsewhere (go2rtc declares `src` in the path) moved to the query, an
 * undeclared one added as a string (as an undeclared path template name is).
 */
function fixQuery(out: Parameters, ctx: ParameterContext): void {
  for (const [name, value] of ctx.fixed) {
    const named = templateName(value);
    if (named !== undefined) {
      queryFromTemplate(out, name, named);
      continue;
    }
    const schema = { type: 'string', const: value };
    const declared = out.query.find((p) => p.name === name);
    if (declared) {
      Object.assign(declared, { required: true, schema, fixed: value });
      continue;
    }
    out.query.push({
      name,
      in: 'query',
      required: true,
      schema,
      style: 'form',
      explode: true,
      deprecated: false,
      fixed: value,
      identifier: '',
    });
  }
}

function queryFromTemplate(out: Parameters, name: string, named: string): void {
  const declared =
    out.query.find((p) => p.name === named) ?? out.path.find((p) => p.name === named);
  if (declared?.in === 'query') {
    Object.assign(declared, { name, required: true });
    return;
  }
  if (declared) out.path = out.path.filter((p) => p !== declared);
  out.query.push({
    ...(declared ?? { schema: { type: 'string' }, deprecated: false }),
    name,
    in: 'query',
    required: true,
    style: 'form',
    explode: true,
    identifier: '',
  });
}

/** Path parameters and the template agree: undeclared ones are added, stray ones dropped. */
function matchTemplate(out: Parameters, ctx: ParameterContext): void {
  const path = pathOfPointer(ctx.pointer);
  if (path === undefined) return;
  const names = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] ?? '');
  for (const name of names) {
    if (out.path.some((p) => p.name === name)) continue;
    ctx.findings.add(
      'path-parameter-undeclared',
      ctx.pointer,
      `path parameter {${name}} is not declared: read as a string`,
    );
    out.path.push({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      style: 'simple',
      explode: false,
      deprecated: false,
      identifier: '',
    });
  }
  for (const p of out.path.filter((x) => !names.includes(x.name)))
    ctx.findings.add(
      'path-parameter-unused',
      ctx.pointer,
      `path parameter ${JSON.stringify(p.name)} is not in the path template: ignored`,
    );
  out.path = out.path.filter((p) => names.includes(p.name));
}

/** The routable path of an operation pointer under /paths (undefined for webhooks). */
function pathOfPointer(pointer: string): string | undefined {
  const tokens = splitPointer(pointer);
  if (tokens[0] !== 'paths' || tokens[1] === undefined) return undefined;
  return splitPathKey(tokens[1]).path;
}

function firstExample(doc: Obj, holder: Obj): unknown {
  if (holder['example'] !== undefined) return holder['example'];
  if (isObject(holder['examples'])) {
    const first = resolve(doc, Object.values(holder['examples'])[0]);
    if (isObject(first)) return first['value'];
  }
  return undefined;
}

export function readExamples(doc: Obj, media: Obj): NamedExample[] {
  const out: NamedExample[] = [];
  if (isObject(media['examples'])) {
    for (const [name, raw] of Object.entries(media['examples'])) {
      const ex = resolve(doc, raw);
      if (!isObject(ex) || !('value' in ex)) continue; // externalValue is not fetched
      out.push({
        name,
        ...(typeof ex['summary'] === 'string' ? { summary: ex['summary'] } : {}),
        value: ex['value'],
      });
    }
  } else if (media['example'] !== undefined) {
    out.push({ name: 'default', value: media['example'] });
  }
  return out;
}

/** A response header's `example`, else its first `examples` value (both beside its schema). */
function headerExample(doc: Obj, header: Obj): { example?: unknown } {
  if (header['example'] !== undefined) return { example: header['example'] };
  const first = readExamples(doc, header)[0];
  return first ? { example: first.value } : {};
}

/** Picks the media type a generated client and server speak, in order of preference. */
/**
 * The media type a body or answer is read as, its media object, and its key as written. A key that
 * is prose, not a media type (`{the MIME type of the attachment file itself}`: corpus ODK
 * Central), says "some media type": read as the range `*\/*`, with a finding where it is.
 */
function pickMedia(
  content: Obj,
  at: string,
  findings: Findings | undefined,
): [string, Obj, string] | undefined {
  const entries = Object.entries(content)
    .filter((e): e is [string, Obj] => isObject(e[1]))
    .map(([key, media]): [string, Obj, string] => {
      if (isMediaKey(key)) return [key, media, key];
      findings?.add(
        'media-type-invalid',
        `${at}/content/${escapeToken(key)}`,
        `${JSON.stringify(key)} is not a media type (type/subtype): read as any media type (*/*)`,
      );
      return ['*/*', media, key];
    });
  const rank = (type: string) => {
    const t = type.toLowerCase();
    if (t === 'application/json' || /\+json$|\/json;/.test(t) || t.endsWith('/json')) return 0;
    if (t === 'multipart/form-data') return 1;
    if (t === 'application/x-www-form-urlencoded') return 2;
    if (t === 'text/event-stream') return 3;
    if (t.startsWith('text/')) return 4;
    return 5;
  };
  return entries.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]))[0];
}

function bodyKind(mediaType: string): BodyKind {
  const t = mediaType.toLowerCase();
  if (t.includes('json')) return 'json';
  if (t === 'multipart/form-data') return 'multipart';
  if (t === 'application/x-www-form-urlencoded') return 'form';
  // XML is text: the server checks it is well-formed and judges it by the schema's `xml` hints.
  if (t.startsWith('text/') || isXmlMedia(t)) return 'text';
  return 'binary';
}

function isFileSchema(doc: Obj, schema: unknown): boolean {
  const s = resolve(doc, schema);
  if (!isObject(s)) return false;
  if (s['type'] === 'array') return isFileSchema(doc, s['items']);
  return (
    s['format'] === 'binary' ||
    s['format'] === 'base64' ||
    typeof s['contentMediaType'] === 'string' ||
    typeof s['contentEncoding'] === 'string'
  );
}

export function readBody(
  doc: Obj,
  op: Obj,
  conv: SchemaConverter,
  pointer = '',
  findings?: Findings,
): RequestBody | undefined {
  const body = resolve(doc, op['requestBody']);
  if (!isObject(body) || !isObject(body['content'])) return undefined;
  const picked = pickMedia(body['content'], bodyPointer(op, pointer), findings);
  if (!picked) return undefined;
  const [mediaType, media, key] = picked;
  const schema = resolve(doc, media['schema']);
  const props = isObject(schema) && isObject(schema['properties']) ? schema['properties'] : {};
  const kind = bodyKind(mediaType);
  const at = `${bodyPointer(op, pointer)}/content/${escapeToken(key)}/schema`;
  // A form or multipart body is a set of named fields: a schema of another type (a Swagger 2.0
  // file upload converted as `type: string, format: binary`: corpus noosh.com) names none, and
  // no request could match it. Read as fields of any name, with a finding.
  const fieldless =
    (kind === 'form' || kind === 'multipart') &&
    isObject(schema) &&
    typeof schema['type'] === 'string' &&
    schema['type'] !== 'object';
  if (fieldless)
    findings?.add(
      'body-form-not-object',
      at,
      `a ${mediaType} body is a set of named fields, but its schema is of type ${String(schema['type'])}: read as fields of any name`,
    );
  return {
    mediaType,
    kind,
    required: body['required'] === true,
    schema: conv.convert(fieldless ? { type: 'object' } : (media['schema'] ?? {}), at),
    fileFields: Object.entries(props)
      .filter(([, s]) => isFileSchema(doc, s))
      .map(([name]) => name)
      .sort(),
    examples: readExamples(doc, media),
    ...(typeof body['description'] === 'string' ? { description: body['description'] } : {}),
    ...formEncoding(mediaType, media['encoding']),
  };
}

const FORM_STYLES = new Set(['form', 'spaceDelimited', 'pipeDelimited', 'deepObject']);

/** A form body's per-field style and explode (what serialising and decoding need of `encoding`). */
function formEncoding(mediaType: string, encoding: unknown): Pick<RequestBody, 'encoding'> {
  if (bodyKind(mediaType) !== 'form' || !isObject(encoding)) return {};
  const out: NonNullable<RequestBody['encoding']> = {};
  for (const [name, e] of Object.entries(encoding)) {
    if (!isObject(e)) continue;
    const style =
      typeof e['style'] === 'string' && FORM_STYLES.has(e['style']) ? e['style'] : undefined;
    const explode = typeof e['explode'] === 'boolean' ? e['explode'] : undefined;
    if (style === undefined && explode === undefined) continue;
    out[name] = {
      ...(style !== undefined ? { style: style as FormStyle } : {}),
      ...(explode !== undefined ? { explode } : {}),
    };
  }
  return Object.keys(out).length > 0 ? { encoding: out } : {};
}

function bodyPointer(op: Obj, pointer: string): string {
  const target = refPointer(op['requestBody']);
  return target?.startsWith('/') ? target : `${pointer}/requestBody`;
}

function responseKind(mediaType: string | undefined): ResponseKind {
  if (mediaType === undefined) return 'empty';
  const t = mediaType.toLowerCase();
  if (t.includes('json')) return 'json';
  if (t === 'text/event-stream') return 'sse';
  if (t.startsWith('text/')) return 'text';
  return 'binary';
}

export function readResponses(
  doc: Obj,
  op: Obj,
  conv: SchemaConverter,
  pointer = '',
  findings?: Findings,
): { responses: Response[]; raw: Map<string, unknown> } {
  const responses: Response[] = [];
  const raw = new Map<string, unknown>();
  const declared = isObject(op['responses']) ? op['responses'] : {};
  for (const [status, value] of Object.entries(declared)) {
    const r = resolve(doc, value);
    if (!isObject(r)) continue;
    const target = refPointer(value);
    const at = target?.startsWith('/') ? target : `${pointer}/responses/${escapeToken(status)}`;
    const picked = isObject(r['content']) ? pickMedia(r['content'], at, findings) : undefined;
    const headers = isObject(r['headers'])
      ? Object.entries(r['headers'])
          .map(([name, h]) => [name, resolve(doc, h)] as const)
          .filter((e): e is readonly [string, Obj] => isObject(e[1]))
          .map(([name, h]) => ({
            name,
            required: h['required'] === true,
            schema: conv.convert(h['schema'] ?? {}, `${at}/headers/${escapeToken(name)}/schema`),
            ...(typeof h['description'] === 'string' ? { description: h['description'] } : {}),
            ...headerExample(doc, h),
          }))
          .sort((a, b) => a.name.localeCompare(b.name, 'en'))
      : [];
    raw.set(status, picked?.[1]['schema']);
    responses.push({
      status: status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(),
      description: typeof r['description'] === 'string' ? r['description'] : '',
      ...(picked ? { mediaType: picked[0] } : {}),
      kind: responseKind(picked?.[0]),
      ...(picked && picked[1]['schema'] !== undefined
        ? {
            schema: conv.convert(
              picked[1]['schema'],
              `${at}/content/${escapeToken(picked[2])}/schema`,
            ),
          }
        : {}),
      headers,
      examples: picked ? readExamples(doc, picked[1]) : [],
    });
  }
  responses.sort((a, b) => a.status.localeCompare(b.status, 'en'));
  return { responses, raw };
}
