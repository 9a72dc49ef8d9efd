/**
 * A request the contract suite wrote, read back as the server reads it, in process (no socket):
 * the headers as fetch normalises them (undici's Headers), the route and the query as Fastify's
 * router finds them (find-my-way with the app's options, fast-querystring), the body by the
 * server's parsers (JSON, parseFormText, @fastify/busboy for multipart as @fastify/multipart
 * reads it), then the server's own steps in Fastify's order: the cookie check, the required
 * body, the style decoding (partsDecoding), the route schemas' validation (params, body, query,
 * headers) and the multipart check. What the agreement check compares or expects refused.
 */
import { Busboy } from '@fastify/busboy';
import FindMyWay from 'find-my-way';
import type { FastifyRequest } from 'fastify';
import type { Operation, ServiceModel } from '../../model/index.ts';
import type { OutgoingRequest } from '../../contract-tests/http.ts';
import { cookieCheck } from '../../runtime/server/cookies.ts';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { MAX_PARAM_LENGTH } from '../../runtime/server/answers.ts';
import { longSegment } from '../../runtime/server/long-segment.ts';
import { decodable } from '../../runtime/server/content-coding.ts';
import { HttpError } from '../../runtime/server/errors.ts';
import type { MultipartForm } from '../../runtime/server/multipart.ts';
import { partsDecoding } from '../../runtime/server/param-styles.ts';
import { parseFormText } from '../../runtime/server/parsers.ts';
import { multipartCheck } from '../../runtime/server/route-handler.ts';
import { routePathOf } from '../../runtime/server/routes.ts';
import { routeSchemas, validatorCompiler, validatorsFor } from '../../runtime/server/validation.ts';

type Bag = Record<string, unknown>;

/** What the handler would get, by location and parameter name (headers by their lower case). */
export interface Read {
  path: Bag;
  query: Bag;
  header: Bag;
  cookie: Bag;
  body: unknown;
}

export interface AjvError {
  instancePath: string;
  keyword: string;
  params: Bag;
  message?: string;
}

/** Why the server refused: the part Fastify names, its message, Ajv's errors when it has them. */
export interface Refusal {
  part: 'route' | 'cookie' | 'params' | 'body' | 'querystring' | 'headers';
  message: string;
  errors: AjvError[];
  /** The answer's status where it is not 400 (a 414 for a path segment the router will not take). */
  status?: number;
}

export type Outcome = { read: Read } | { refused: Refusal };

type Check = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

/** The reader of one operation's requests (its router, schemas and steps made once). */
export function requestReader(
  model: ServiceModel,
  op: Operation,
): (req: OutgoingRequest) => Promise<Outcome> {
  const { url, params: aliases } = routePathOf(model, op);
  // The app's router options (app.ts) and dispatch.ts's case sensitivity.
  const router = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH, caseSensitive: true });
  router.on(op.method.toUpperCase() as 'GET', url, () => undefined);
  const schemas = routeSchemas(model, op, aliases);
  const compile = validatorCompiler(model);
  const checks = (['params', 'body', 'querystring', 'headers'] as const).flatMap((part) => {
    const schema = schemas[part];
    return schema === undefined
      ? []
      : [{ part, check: compile({ schema, httpPart: part } as never) as unknown as Check }];
  });
  const cookies = cookieCheck(model, op);
  const decode = partsDecoding(model, op);
  const multipart = multipartCheck(model, op, validatorsFor(model));
  // param-styles.ts decodingHook: a GET or HEAD carries no body (fetch sends none), so its
  // required body is not demanded.
  const bodyRequired =
    op.body?.required === true &&
    op.body.kind !== 'multipart' &&
    op.method !== 'get' &&
    op.method !== 'head';

  return async (req) => {
    const headers: Bag = {};
    new Headers(req.headers).forEach((v, k) => (headers[k] = v));
    const bytes =
      req.body === undefined
        ? undefined
        : typeof req.body === 'string'
          ? Buffer.from(req.body)
          : Buffer.from(req.body);
    if (bytes) headers['content-length'] = String(bytes.length);
    // content-coding.ts: a body in a coding the server decodes is read decoded.
    const coding = String(headers['content-encoding'] ?? '');
    const plain = bytes && decodable(coding) ? decoded(coding, bytes) : bytes;
    const found = router.find(op.method.toUpperCase() as 'GET', req.pathAndQuery);
    if (!found) {
      // answers.ts notFoundHandler: the operation's path with a segment longer than the router
      // takes is a 400 for the parameter's maxLength where the value breaks it, else a 414 (a
      // refusal the suite takes for a value too long), not a missing route.
      const q = req.pathAndQuery.indexOf('?');
      const pathOnly = q < 0 ? req.pathAndQuery : req.pathAndQuery.slice(0, q);
      const long = longSegment(model, op, pathOnly);
      if (long?.param !== undefined)
        return {
          refused: {
            part: 'params',
            message: long.message,
            errors: [
              {
                instancePath: `/${long.param.replace(/~/g, '~0').replace(/\//g, '~1')}`,
                keyword: 'maxLength',
                params: { limit: long.maxLength },
              },
            ],
          },
        };
      return {
        refused: {
          part: 'route',
          message: long ? long.message : `no route for ${req.pathAndQuery}`,
          errors: [],
          ...(long ? { status: 414 } : {}),
        },
      };
    }
    const params = { ...found.params } as Bag;
    const query = { ...found.searchParams } as Bag;
    let cookie: Bag = {};
    let body: unknown;
    try {
      if (cookies) cookie = cookies({ headers } as unknown as FastifyRequest);
      if (plain && op.body) body = await parseBody(op, headers, plain);
      if (bodyRequired && !bytes)
        throw new HttpError(400, `body is required (send ${op.body!.mediaType})`);
      const parts = { url: req.pathAndQuery, body, query, params, headers };
      decode?.(parts);
      body = parts.body;
    } catch (err) {
      const part = cookies && /^cookie/.test((err as Error).message) ? 'cookie' : 'params';
      return {
        refused: {
          part: err instanceof HttpError ? partOf(err.message, part) : 'body',
          message: (err as Error).message,
          errors: [],
        },
      };
    }
    const bags: Bag = {
      params,
      body: body === undefined ? null : body,
      querystring: query,
      headers,
    };
    for (const { part, check } of checks) {
      if (!check(bags[part]))
        return {
          refused: {
            part,
            message: `${part} invalid`,
            // Path errors name the parameter, not its route alias (validation.ts PATH_ALIASES).
            errors: check.errors ?? [],
          },
        };
    }
    // route-handler.ts: a request that is not multipart is refused when the body is required.
    if (multipart && body === undefined && op.body?.required)
      return {
        refused: { part: 'body', message: `body must be ${op.body.mediaType}`, errors: [] },
      };
    if (multipart && body !== undefined) {
      try {
        body = multipart(body as MultipartForm).body;
      } catch (err) {
        return { refused: { part: 'body', message: (err as Error).message, errors: [] } };
      }
    }
    const path: Bag = {};
    for (const [alias, name] of aliases)
      if (Object.hasOwn(params, alias)) path[name] = params[alias];
    return { read: { path, query, header: headers, cookie, body } };
  };
}

function decoded(coding: string, bytes: Buffer): Buffer {
  const c = coding.trim().toLowerCase();
  return c === 'br'
    ? brotliDecompressSync(bytes)
    : c === 'deflate'
      ? inflateSync(bytes)
      : gunzipSync(bytes);
}

/** The part an HttpError of the decoding names (`querystring/x ...`, `headers/x ...`, `body ...`). */
function partOf(message: string, fallback: Refusal['part']): Refusal['part'] {
  const m = /^(cookie|params|querystring|headers|body)\b/.exec(message);
  return (m?.[1] as Refusal['part'] | undefined) ?? fallback;
}

/** The body as the content type parsers of parsers.ts make it (multipart: the parts read). */
async function parseBody(op: Operation, headers: Bag, bytes: Buffer): Promise<unknown> {
  const kind = op.body!.kind;
  const text = bytes.toString('utf8');
  if (kind === 'json') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new HttpError(400, `body is not JSON: ${(err as Error).message}`);
    }
  }
  if (kind === 'form') return parseFormText(text);
  if (kind === 'multipart') return readParts(headers, bytes);
  return kind === 'text' ? text : bytes;
}

/** A multipart body's parts, as readMultipart (multipart.ts) gathers them from busboy. */
function readParts(headers: Bag, bytes: Buffer): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    const form: MultipartForm = {
      fields: Object.create(null) as MultipartForm['fields'],
      files: [],
    };
    const bb = new Busboy({ headers: headers as { 'content-type': string } });
    bb.on('field', (name: string, value: string) => {
      const prev = form.fields[name];
      form.fields[name] =
        prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    });
    bb.on(
      'file',
      (
        field: string,
        stream: NodeJS.ReadableStream,
        filename: string,
        _enc: string,
        mimetype: string,
      ) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const data = Buffer.concat(chunks);
          form.files.push({ field, filename, mimetype, size: data.length, data });
        });
      },
    );
    bb.on('finish', () => resolve(form));
    bb.on('error', (err: Error) =>
      reject(new HttpError(400, `Malformed multipart body: ${err.message}`)),
    );
    bb.end(bytes);
  });
}
