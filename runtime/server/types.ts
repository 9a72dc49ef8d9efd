/**
 * Types the generated Handlers interface is built from, read off openapi-typescript's
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
