/**
 * Type-level helpers the generated client uses to type each method from openapi-typescript's
 * `paths[path][method]`: the input (parameters by location and the body, with files accepted as
 * Blob / bytes / path in multipart bodies) and the result (the payload of the envelope, or the
 * whole body of a plain JSON operation).
 */
import type { RequestBodyOption } from 'openapi-fetch';
import type { CallOptions, ClientResult } from './client.ts';
import type { FileInput } from './multipart.ts';
import type { SseStream } from './sse.ts';
import type { WaitOptions } from './wait.ts';

/** Facts of one operation the types cannot read from openapi-typescript's output. */
export interface MethodMeta {
  /** The envelope's payload key (`Data` / `data`), or null for a plain JSON operation. */
  payload: string | null;
  /** Multipart properties that carry files. */
  files: string;
  /** The success response is a server-sent event stream. */
  stream: boolean;
}

/** The meta of most operations: plain JSON (no envelope), no file fields, no event stream. */
export interface PlainMeta {
  payload: null;
  files: never;
  stream: false;
}

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

type ParamsOf<O> = O extends { parameters: infer P } ? P : {};

type FileValue<T> = NonNullable<T> extends readonly unknown[] ? FileInput | FileInput[] : FileInput;

type FilesIn<X, F extends string> = X extends object
  ? { [K in keyof X]: K extends F ? FileValue<X[K]> : X[K] }
  : X;

type WithFiles<B, F extends string> = [F] extends [never]
  ? B
  : { [K in keyof B]: FilesIn<B[K], F> };

/** What a method takes: `{ query?, path?, header?, cookie?, body? }`, each typed from the spec. */
export type OperationInput<O, F extends string = never> = ParamsOf<O> &
  WithFiles<RequestBodyOption<O>, F>;

/** The method's arguments: the input is optional when nothing in it is required. */
export type MethodArgs<I, Extra = CallOptions> = [RequiredKeys<I>] extends [never]
  ? [input?: I, options?: Extra]
  : [input: I, options?: Extra];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226 | '2XX';

type ResponsesOf<O> = O extends { responses: infer R } ? R : {};

type ContentOf<R> = R extends { content: infer C }
  ? C extends Record<string, unknown>
    ? C[keyof C]
    : unknown
  : undefined;

/** The body of the operation's success response(s). */
export type SuccessBody<O> = [Extract<keyof ResponsesOf<O>, SuccessStatus>] extends [never]
  ? unknown
  : ContentOf<ResponsesOf<O>[Extract<keyof ResponsesOf<O>, SuccessStatus> & keyof ResponsesOf<O>]>;

type PayloadIn<B, K extends string> = B extends { [P in K]: infer D }
  ? D
  : B extends { [P in K]?: infer D }
    ? D | undefined
    : unknown;

/** What `result.data` holds: the envelope's payload, or the whole body of a plain JSON operation. */
export type DataOf<O, M extends MethodMeta> = M['payload'] extends string
  ? PayloadIn<SuccessBody<O>, M['payload']>
  : SuccessBody<O>;

export type OperationMethod<O, M extends MethodMeta> = M['stream'] extends true
  ? (...args: MethodArgs<OperationInput<O, M['files']>>) => Promise<SseStream>
  : (...args: MethodArgs<OperationInput<O, M['files']>>) => Promise<ClientResult<DataOf<O, M>>>;

/** Submit, then poll the status operation until a final state: resolves with the last status. */
export type WaitMethod<O, M extends MethodMeta, S, SM extends MethodMeta> = (
  ...args: MethodArgs<OperationInput<O, M['files']>, WaitOptions>
) => Promise<ClientResult<DataOf<S, SM> | DataOf<O, M>>>;
