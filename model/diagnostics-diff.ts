/**
 * The rules of `dataapi diff`: one stable id per kind of change, with its severity and title.
 * Ids follow oasdiff's naming where one exists (`api-operation-removed`, `request-parameter-...`,
 * `response-property-...`). Scripts, `--allow` and `x-dataapi-allow-breaking` rely on them:
 * never rename one, only add. Titles are the SARIF rule descriptions.
 *
 * Direction matters: a narrower enum breaks a request (clients still send the removed value) and
 * is harmless in a response; a new enum value is harmless in a request and surprises strict
 * clients reading a response.
 */
import type { DiagnosticEntry } from './diagnostics-types.ts';

export interface DiffRule extends DiagnosticEntry {
  severity: 'breaking' | 'warning' | 'compatible';
}

// What to do follows from the severity; a rule may say more.
const rule =
  (severity: DiffRule['severity'], action: string) =>
  (title: string, more?: string): DiffRule => ({
    severity,
    title,
    action: more ?? action,
    sources: ['diff'],
  });
const b = rule(
  'breaking',
  'keep the old form (add alongside, deprecate, then remove after a sunset), or accept it on purpose with --allow or x-dataapi-allow-breaking',
);
const w = rule(
  'warning',
  'check that clients cope (strict clients may not); accept it with --allow once they do',
);
const c = rule('compatible', 'nothing: existing clients keep working');

export const DIFF_RULES = {
  // Operations and the service's own facts.
  'api-operation-removed': b('an operation was removed'),
  'api-operation-added': c('an operation was added'),
  'api-operation-id-changed': b("the operationId changed (it renames the client's method)"),
  'api-operation-deprecated': c('an operation was deprecated'),
  'api-removed-before-sunset': b('a deprecated operation was removed before its sunset day'),
  'api-removed-after-sunset': c('a deprecated operation was removed on or after its sunset day'),
  'api-operation-text-changed': c('summary or description changed (text only)'),
  'api-preview-removed': b('the /demo preview variant was removed'),
  'api-preview-added': c('a /demo preview variant was added'),
  'envelope-spelling-changed': b(
    'the envelope spelling changed (DataStatus/Data vs dataStatus/data)',
  ),
  'envelope-added': b('the response is now wrapped in an envelope'),
  'envelope-removed': b('the response is no longer wrapped in an envelope'),
  'key-transport-removed': b('a way of sending the key was removed'),
  'key-transport-added': c('a way of sending the key was added'),
  'auth-became-required': b('the operation now requires a key'),
  'auth-became-optional': c('the operation no longer requires a key'),
  'rate-limit-lowered': b('the rate limit was lowered'),
  'rate-limit-raised': c('the rate limit was raised'),
  'business-code-group-changed': b('the business code group changed'),
  'business-code-added': w('a new business code can be answered'),
  'business-code-removed': c('a business code is no longer answered'),
  'business-code-outcome-changed': b('a business code changed meaning'),
  'response-streaming-changed': b('the success response switched between JSON and a stream'),
  'async-link-removed': w('the asynchronous submit/status pairing was removed'),
  // Parameters.
  'request-parameter-added-required': b('a required parameter was added'),
  'request-parameter-added': c('an optional parameter was added'),
  'request-parameter-removed': w('a parameter was removed (clients that send it are ignored)'),
  'request-parameter-became-required': b('an optional parameter became required'),
  'request-parameter-became-optional': c('a required parameter became optional'),
  'request-parameter-style-changed': b('the serialisation of a parameter changed'),
  'request-require-any-of-added': b('a new group of parameters of which one is required'),
  // Request bodies.
  'request-body-added-required': b('a required request body was added'),
  'request-body-added': c('an optional request body was added'),
  'request-body-removed': w('the request body was removed'),
  'request-body-became-required': b('the request body became required'),
  'request-body-became-optional': c('the request body became optional'),
  'request-body-media-type-changed': b('the request body media type changed'),
  // Request schemas (parameters and bodies).
  'request-type-narrowed': b('a request value accepts fewer types'),
  'request-type-widened': c('a request value accepts more types'),
  'request-enum-value-removed': b('an enum value a client may send was removed'),
  'request-enum-value-added': c('a request enum accepts a new value'),
  'request-bounds-narrowed': b('a request bound was tightened (minimum, maximum, length, items)'),
  'request-bounds-widened': c('a request bound was relaxed'),
  'request-constraint-added': b('a pattern or format was added or changed in a request'),
  'request-constraint-removed': c('a pattern or format was removed from a request'),
  'request-property-added-required': b('a required request field was added'),
  'request-property-added': c('an optional request field was added'),
  'request-property-removed': w('a request field was removed (servers ignore it)'),
  'request-property-became-required': b('an optional request field became required'),
  'request-property-became-optional': c('a required request field became optional'),
  'request-additional-properties-closed': b('a request object no longer accepts other fields'),
  'request-additional-properties-opened': c('a request object accepts other fields'),
  'request-alternative-removed': b('a oneOf/anyOf alternative of a request was removed'),
  'request-alternative-added': c('a oneOf/anyOf alternative of a request was added'),
  'request-schema-changed': w('a request schema changed in a way dataapi does not classify'),
  // Responses.
  'response-success-status-removed': b('a success status was removed'),
  'response-status-removed': b('an error status was removed'),
  'response-status-added': w('a new status can be answered'),
  'response-media-type-changed': b('the response media type changed'),
  'response-body-removed': b('the response no longer has a body'),
  'response-required-header-removed': b('a required response header was removed'),
  'response-header-removed': w('an optional response header was removed'),
  // Response schemas (bodies and headers).
  'response-type-changed': b('a response value can have a type clients do not expect'),
  'response-type-narrowed': c('a response value has fewer possible types'),
  'response-enum-value-added': w('a response enum has a new value (breaks strict clients)'),
  'response-enum-value-removed': c('a response enum value is no longer sent'),
  'response-bounds-widened': w('a response bound was relaxed (breaks strict clients)'),
  'response-bounds-narrowed': c('a response bound was tightened'),
  'response-constraint-removed': w('a pattern or format of a response was removed or changed'),
  'response-constraint-added': c('a pattern or format was added to a response'),
  'response-property-removed': b('a required response field was removed'),
  'response-optional-property-removed': w('an optional response field was removed'),
  'response-property-became-optional': b('a response field clients rely on became optional'),
  'response-property-became-required': c('a response field is now always present'),
  'response-property-added': c('a response field was added'),
  'response-additional-properties-opened': w('a response object may carry undeclared fields'),
  'response-additional-properties-closed': c('a response object no longer carries other fields'),
  'response-alternative-added': b('a oneOf/anyOf alternative of a response was added'),
  'response-alternative-removed': c('a oneOf/anyOf alternative of a response was removed'),
  'response-schema-changed': w('a response schema changed in a way dataapi does not classify'),
} as const satisfies Record<string, DiffRule>;
