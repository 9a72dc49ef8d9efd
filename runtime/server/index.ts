/**
 * Server runtime: what generated/server/index.ts registers. See register.ts for how routes and
 * their behaviours are put together, types.ts for the per-operation types the generated Handlers
 * interface is built from, and docs/server.md for running it.
 */
export { registerService, DEFAULT_LIMITS, NO_KEY_SOURCE } from './register.ts';
export type { Handler, HandlerInput, Limits, RouteContext, ServiceOptions } from './register.ts';
export {
  HttpError,
  ServiceResult,
  respond,
  errorBody,
  errorAnswer,
  problemBody,
  businessCodeFor,
  defaultEnvelopeOp,
} from './errors.ts';
export type { DescribeError, ErrorAnswer } from './errors.ts';
export type { KeyVerdict, VerifyKey } from './auth.ts';
export { readKey } from './auth.ts';
export { keysVerifier, keysFromEnv, readKeysFile, parseKeyLines, KeySourceError } from './keys.ts';
export type { UploadedFile } from './multipart.ts';
export type { RateLimitOptions, RedisClient } from './route-limits.ts';
export { createPathMatcher, toRoutePath } from './routes.ts';
export { MAX_PARAM_LENGTH } from './answers.ts';
export { rewriteOption, sharedRouteRewriter } from './choose.ts';
export { deref, resolveRef, propertiesOf, declaredResponse } from 'dataapi/model';
export { loadHandlers } from './handlers.ts';
export { afterListening } from './background.ts';
export { operationsOf } from './route-context.ts';
export { xmlFault, xmlValue } from 'dataapi/runtime/xml';
export type * from './types.ts';
