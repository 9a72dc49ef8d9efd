/**
 * Types the generated Handlers type is built from, read off openapi-typescript's
 * `paths[path][method]` operation types (so operations without an operationId work too).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from 'dataapi/model';
import type { ServiceResult } from './errors.ts';
import type { UploadedFile } from './multipart.ts';

type Empty = Record<string, never>;

/** The `query`, `path` or `header` parameters of an operation type (`{}` when it has none). */
export type ParamsOf<O, L extends 'query' | 'path' | 'header' | 'cookie'> = O extends {
  parameters: infer P;
}
  ? L extends keyof P
    ? [NonNullable<P[L]>] extends [never]
      ? Empty
      : NonNullable<P[L]>
    : Empty
  : Empty;

/** The request body of an operation type for one media type. */
export type RequestBodyOf<O, M extends string> = O extends { requestBody?: infer RB }
  ? [NonNullable<RB>] extends [never]
    ? undefined
    : NonNullable<RB> extends { content: infer C }
      ? M extends keyof C
        ? C[M]
        : unknown
      : unknown
  : undefined;

/**
 * The response body of an operation type for one status and media type. One conditional type
 * per member (no mapped type over every status): `{ 200: X }` matches `{ '200': infer X }`, as a
 * numeric property name is the same name as its text. A server of a thousand operations
 * type-checks in a fraction of the time.
 */
export type ResponseBodyOf<O, S extends string, M extends string> = O extends {
  responses: { [K in S]: { content: { [K2 in M]: infer C } } };
}
  ? C
  : unknown;

/** The payload (the envelope's Data/data property) of an operation's response body. */
export type PayloadOf<O, S extends string, M extends string, K extends string> =
  ResponseBodyOf<O, S, M> extends infer B ? (K extends keyof B ? B[K] : unknown) : unknown;

export interface OperationInput<Q, P, B> {
  /** Validated and coerced query parameters (unknown ones pass through). */
  query: Q & Record<string, unknown>;
  path: P;
  headers: IncomingHttpHeaders;
  body: B;
  /** Uploaded files of a multipart body. */
  files?: UploadedFile[];
  request: FastifyRequest;
  reply: FastifyReply;
  op: Operation;
  /** True on the preview variant (no key). */
  preview: boolean;
  /** The accepted key (never log it). */
  key?: string;
}

/** A handler returns the payload only (or `respond(payload, status)` to set envelope fields). */
export type OperationHandler<Q, P, B, R> = (
  input: OperationInput<Q, P, B>,
) => Promise<R | ServiceResult<R>>;

/**
 * One operation in the generated `HandlerSpecs`, a field absent where there is none: its
 * openapi-typescript type, the success response's status and media type, the envelope's payload
 * key, the request body's media type, whether that body is required, and the multipart fields
 * that carry files (left out of the typed body). Plain object types, and `Handlers` a mapped type
 * over them: the compiler works a handler's types out only where a program uses it, not for every
 * operation on every check (tsc over GitHub's generated server: docs/benchmarks.md).
 */
export interface HandlerSpec {
  op: unknown;
  status?: string;
  media?: string;
  payload?: string;
  body?: string;
  bodyRequired?: boolean;
  files?: string;
}

/** A text field of a spec (`never` when absent). Unconstrained, so nothing is checked eagerly. */
type Text<T, F extends string> = T extends { [K in F]: infer V extends string } ? V : never;
type OpOf<T> = T extends { op: infer O } ? O : never;

/** The request body a handler receives: none, the typed body, without its file fields. */
export type SpecBody<T> = [Text<T, 'body'>] extends [never]
  ? undefined
  : | (T extends { bodyRequired: true } ? never : undefined)
    | ([Text<T, 'files'>] extends [never]
        ? RequestBodyOf<OpOf<T>, Text<T, 'body'>>
        : Omit<RequestBodyOf<OpOf<T>, Text<T, 'body'>>, Text<T, 'files'>>);

/** What a handler returns: the success body, or its payload in an envelope (`unknown` without one). */
export type SpecResult<T> = [Text<T, 'media'>] extends [never]
  ? unknown
  : [Text<T, 'payload'>] extends [never]
    ? ResponseBodyOf<OpOf<T>, Text<T, 'status'>, Text<T, 'media'>>
    : PayloadOf<OpOf<T>, Text<T, 'status'>, Text<T, 'media'>, Text<T, 'payload'>>;

/** The handler of one operation, from its spec. */
export type HandlerOf<T> = OperationHandler<
  ParamsOf<OpOf<T>, 'query'>,
  ParamsOf<OpOf<T>, 'path'>,
  SpecBody<T>,
  SpecResult<T>
>;
