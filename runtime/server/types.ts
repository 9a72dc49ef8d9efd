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
 * What the generated `Handlers` type needs to know of one operation (`never` where there is
 * none): its openapi-typescript type `O`, the success response's status `S` and media type `M`,
 * the envelope's payload key `K`, the request body's media type `B`, whether that body is
 * required `R`, and the multipart fields that carry files `F` (left out of the typed body). A
 * generic interface, and `Handlers` a mapped type over the specs: the compiler works a handler's
 * types out only where a program uses it, instead of for every operation on every check (tsc over
 * GitHub's generated server, 1,223 operations: docs/benchmarks.md).
 */
export interface HandlerSpec<
  O,
  S extends string = never,
  M extends string = never,
  K extends string = never,
  B extends string = never,
  R extends boolean = false,
  F extends string = never,
> {
  op: O;
  status: S;
  media: M;
  payload: K;
  body: B;
  bodyRequired: R;
  files: F;
}

type AnySpec = HandlerSpec<unknown, string, string, string, string, boolean, string>;

/** The request body a handler receives: none, the typed body, without its file fields. */
export type SpecBody<T extends AnySpec> = [T['body']] extends [never]
  ? undefined
  : | (T['bodyRequired'] extends true ? never : undefined)
    | ([T['files']] extends [never]
        ? RequestBodyOf<T['op'], T['body']>
        : Omit<RequestBodyOf<T['op'], T['body']>, T['files']>);

/** What a handler returns: the success body, or its payload in an envelope (`unknown` without one). */
export type SpecResult<T extends AnySpec> = [T['media']] extends [never]
  ? unknown
  : [T['payload']] extends [never]
    ? ResponseBodyOf<T['op'], T['status'], T['media']>
    : PayloadOf<T['op'], T['status'], T['media'], T['payload']>;

/** The handler of one operation, from its spec. */
export type HandlerOf<T extends AnySpec> = OperationHandler<
  ParamsOf<T['op'], 'query'>,
  ParamsOf<T['op'], 'path'>,
  SpecBody<T>,
  SpecResult<T>
>;
