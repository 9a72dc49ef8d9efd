/**
 * Server runtime: what generated/server/index.ts registers. See register.ts for the behaviour,
 * types.ts for the per-operation types the generated Handlers interface is built from.
 */
export { registerService, DEFAULT_LIMITS } from './register.ts';
export type { Handler, HandlerInput, Limits, RouteContext, ServiceOptions } from './register.ts';
export {
  HttpError,
  ServiceResult,
  respond,
  errorBody,
  errorAnswer,
  declaredResponse,
  problemBody,
  businessCodeFor,
  defaultEnvelopeOp,
} from './errors.ts';
export type { DescribeError, ErrorAnswer } from './errors.ts';
export type { KeyVerdict, VerifyKey } from './auth.ts';
export { readKey } from './auth.ts';
export type { UploadedFile } from './multipart.ts';
export type { RateLimitOptions } from './rate-limit.ts';
export { createPathMatcher, toRoutePath } from './routes.ts';
export { deref, resolveRef, propertiesOf } from 'dataapi/model';
export { loadHandlers } from './handlers.ts';
export type * from './types.ts';
