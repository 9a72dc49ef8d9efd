/**
 * The typed client's runtime: see client.ts (calls), methods.ts (what createClient returns).
 * Its modules take the model's types from model/types.ts, not the `dataapi/model` barrel: their
 * declarations ship in the packed client, and the barrel's would bring the whole model with them
 * (test/pack/pack.test.ts checks which model declarations ship).
 */
export {
  createRuntimeClient,
  type CallOptions,
  type ClientOptions,
  type ClientResult,
  type KeyLocation,
  type RequestInput,
  type RuntimeClient,
} from './client.ts';
export { createMethods, type RuntimeMethods } from './methods.ts';
export {
  emitDeprecationWarning,
  type DeprecationNotice,
  type OnDeprecated,
} from './deprecation.ts';
export { DataApiError, isDataApiError, outcomeOfHttpStatus, type ClientOutcome } from './errors.ts';
export type { ResponseStatus } from './envelope.ts';
export { fileFromPath, toFormData, type FileInput } from './multipart.ts';
export {
  SlidingWindowLimiter,
  WindowsLimiter,
  type RateLimitOptions,
  type RateLimitSetting,
} from './rate-limit.ts';
export { parseRetryAfter, type RetryOptions } from './retry.ts';
export { readSse, type SseEvent, type SseStream } from './sse.ts';
export { submitAndWait, DEFAULT_FINAL_STATES, type WaitOptions } from './wait.ts';
export type {
  DataOf,
  MethodArgs,
  MethodMeta,
  OperationInput,
  OperationMethod,
  PlainMeta,
  SuccessBody,
  WaitMethod,
} from './types.ts';
export {
  createCaller,
  modelSlice,
  bindOperation,
  bindSubmitAndWait,
  type Caller,
  type StandaloneMethod,
  type StandaloneWaitMethod,
} from './standalone.ts';
