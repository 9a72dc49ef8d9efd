/**
 * Runtime pieces shared by generated servers, the mock, the client and the contract tests:
 * envelope reading and building for both spellings, redaction of the key, and the pacing and
 * Retry-After reading the client and the contract runner share. Schema validation
 * and the model's queries live in model/ and are re-exported here.
 */

// The model's own queries and validation, re-exported for the runtime's callers.
export {
  codeGroupOf,
  deref,
  excerpt,
  findOperation,
  isArraySchema,
  outcomeOf,
  propertiesOf,
  resolveRef,
} from 'dataapi/model';
export {
  coercingValidatorFor,
  compileForFewValidations,
  createSchemaValidator,
  describeErrors,
  directionalErrors,
  validatorFor,
} from 'dataapi/model/validate';
export {
  exampleFault,
  invalidExample,
  type ExampleFault,
  type ExampleReading,
  type InvalidExample,
} from 'dataapi/model/example-verdict';
export type {
  ErrorObject,
  SchemaValidator,
  ValidateFunction,
  ValidatorOptions,
} from 'dataapi/model/validate';
export * from './credentials.ts';
export { encodeForm, formPairs, type FormEncoding } from './form.ts';
export {
  isXmlMedia,
  toXml,
  xmlHints,
  xmlName,
  xmlProperties,
  itemsOf,
  refName,
  type XmlHints,
} from './xml.ts';
export {
  createRedactor,
  keyWarning,
  MIN_SAFE_KEY_LENGTH,
  redact,
  redactDeep,
  REDACTED,
  redactorFor,
  secretForms,
  type Redactor,
} from './redact.ts';
export * from './envelope.ts';
export {
  abortable,
  monotonicClock,
  PACING_MARGIN_MS,
  SlidingWindowPacer,
  sleep,
  type Clock,
  type PacerOptions,
  type PaceWindow,
} from './pacing.ts';
export { parseHttpDate, parseRetryAfter } from './retry-after.ts';
