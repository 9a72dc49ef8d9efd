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
  (title: string, norm: string, more?: string): DiffRule => ({
    severity,
    title,
    action: more ?? action,
    sources: ['diff'],
    norm,
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
  'api-operation-removed': b(
    'an operation was removed',
    'a client built against the old description: its calls are now answered 404 or 405 (RFC 9110 §15.5.5, §15.5.6)',
  ),
  'api-operation-added': c(
    'an operation was added',
    'a client built against the old description: it never calls the new operation',
  ),
  'api-operation-id-changed': b(
    "the operationId changed (it renames the client's method)",
    'a client built against the old description: its generated method is renamed (OpenAPI 3.1.0 §4.8.10 Operation Object: operationId)',
  ),
  'api-operation-deprecated': c(
    'an operation was deprecated',
    'a client built against the old description: its calls are still answered; deprecation announces removal (OpenAPI 3.1.0 §4.8.10 Operation Object: deprecated; RFC 9745)',
  ),
  'api-removed-before-sunset': b(
    'a deprecated operation was removed before its sunset day',
    'a client built against the old description: was promised the operation until its Sunset day (RFC 8594); its calls now fail with 404 (RFC 9110 §15.5.5)',
  ),
  'api-removed-after-sunset': c(
    'a deprecated operation was removed on or after its sunset day',
    'a client built against the old description: was told the operation ends on its Sunset day (RFC 8594), which has passed',
  ),
  'api-operation-text-changed': c(
    'summary or description changed (text only)',
    'no promise at stake: summary and description are documentation (OpenAPI 3.1.0 §4.8.10 Operation Object)',
  ),
  'api-preview-removed': b(
    'the /demo preview variant was removed',
    "a client built against the old description: its keyless /demo calls now fail (the service's preview variants: docs/service.md §1)",
  ),
  'api-preview-added': c(
    'a /demo preview variant was added',
    'a client built against the old description: it never calls the new /demo variant (docs/service.md §1)',
  ),
  'envelope-spelling-changed': b(
    'the envelope spelling changed (DataStatus/Data vs dataStatus/data)',
    "a client built against the old description: it reads the other spelling of the service's envelope (docs/service.md §2)",
  ),
  'envelope-added': b(
    'the response is now wrapped in an envelope',
    "a client built against the old description: it reads the body where the envelope now is (the service's envelope: docs/service.md §2)",
  ),
  'envelope-removed': b(
    'the response is no longer wrapped in an envelope',
    'a client built against the old description: it looks for an envelope no longer sent (docs/service.md §2)',
  ),
  'key-transport-removed': b(
    'a way of sending the key was removed',
    'a client built against the old description: it sends its key a way no longer accepted: refused with 401 (RFC 9110 §15.5.2; OpenAPI 3.1.0 §4.8.27 Security Scheme Object)',
  ),
  'key-transport-added': c(
    'a way of sending the key was added',
    'a client built against the old description: the way it sends its key is still accepted',
  ),
  'auth-became-required': b(
    'the operation now requires a key',
    'a client built against the old description: it sends no key: refused with 401 (RFC 9110 §15.5.2; OpenAPI 3.1.0 §4.8.30 Security Requirement Object)',
  ),
  'auth-became-optional': c(
    'the operation no longer requires a key',
    'a client built against the old description: its key is still accepted',
  ),
  'rate-limit-lowered': b(
    'the rate limit was lowered',
    'a client built against the old description: calling at the old rate is now refused with 429 (RFC 6585 §4; docs/service.md §7)',
  ),
  'rate-limit-raised': c(
    'the rate limit was raised',
    'a client built against the old description: it stays under the new limit',
  ),
  'business-code-group-changed': b(
    'the business code group changed',
    'a client built against the old description: it reads codes of the old group (docs/service.md §5)',
  ),
  'business-code-added': w(
    'a new business code can be answered',
    'a client built against the old description: it may meet a business code it does not know (docs/service.md §5)',
  ),
  'business-code-removed': c(
    'a business code is no longer answered',
    'a client built against the old description: it handles a code it will no longer meet',
  ),
  'business-code-outcome-changed': b(
    'a business code changed meaning',
    'a client built against the old description: it acts on the old meaning of the code (docs/service.md §5)',
  ),
  'response-streaming-changed': b(
    'the success response switched between JSON and a stream',
    'a client built against the old description: it reads JSON where a stream now comes, or the reverse (OpenAPI 3.1.0 §4.8.14 Media Type Object; docs/service.md §8)',
  ),
  'async-link-removed': w(
    'the asynchronous submit/status pairing was removed',
    'a client built against the old description: it polls a status operation its submission no longer links to (OpenAPI 3.1.0 §4.8.20 Link Object; docs/service.md §8)',
  ),
  // Parameters.
  'request-parameter-added-required': b(
    'a required parameter was added',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; OpenAPI 3.1.0 §4.8.12 Parameter Object: required; it does not send the new parameter)',
  ),
  'request-parameter-added': c(
    'an optional parameter was added',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-parameter-removed': w(
    'a parameter was removed (clients that send it are ignored)',
    'a client built against the old description: it still sends the parameter, which the server now ignores (or refuses, if strict)',
  ),
  'request-parameter-became-required': b(
    'an optional parameter became required',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; OpenAPI 3.1.0 §4.8.12 Parameter Object: required)',
  ),
  'request-parameter-became-optional': c(
    'a required parameter became optional',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-parameter-style-changed': b(
    'the serialisation of a parameter changed',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; OpenAPI 3.1.0 §4.8.12 Parameter Object: style and explode; it serialises the value the old way)',
  ),
  'request-require-any-of-added': b(
    'a new group of parameters of which one is required',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; it may send none of the new group)',
  ),
  // Request bodies.
  'request-body-added-required': b(
    'a required request body was added',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; OpenAPI 3.1.0 §4.8.13 Request Body Object: required; it sends no body)',
  ),
  'request-body-added': c(
    'an optional request body was added',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-body-removed': w(
    'the request body was removed',
    'a client built against the old description: it still sends a body, which the server now ignores (or refuses)',
  ),
  'request-body-became-required': b(
    'the request body became required',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; OpenAPI 3.1.0 §4.8.13 Request Body Object: required)',
  ),
  'request-body-became-optional': c(
    'the request body became optional',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-body-media-type-changed': b(
    'the request body media type changed',
    'a client built against the old description: it sends the old media type: refused with 415 (RFC 9110 §15.5.16; OpenAPI 3.1.0 §4.8.13 Request Body Object: content)',
  ),
  // Request schemas (parameters and bodies).
  'request-type-narrowed': b(
    'a request value accepts fewer types',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Validation §6.1.1 type)',
  ),
  'request-type-widened': c(
    'a request value accepts more types',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-enum-value-removed': b(
    'an enum value a client may send was removed',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Validation §6.1.2 enum)',
  ),
  'request-enum-value-added': c(
    'a request enum accepts a new value',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-bounds-narrowed': b(
    'a request bound was tightened (minimum, maximum, length, items)',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Validation §6.2 to §6.4, the bounds of numbers, strings and arrays)',
  ),
  'request-bounds-widened': c(
    'a request bound was relaxed',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-constraint-added': b(
    'a pattern or format was added or changed in a request',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Validation §6.3.3 pattern and §7 format)',
  ),
  'request-constraint-removed': c(
    'a pattern or format was removed from a request',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-property-added-required': b(
    'a required request field was added',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Validation §6.5.3 required; it does not send the new field)',
  ),
  'request-property-added': c(
    'an optional request field was added',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-property-removed': w(
    'a request field was removed (servers ignore it)',
    'a client built against the old description: it still sends the field, which servers now ignore (or refuse, where other fields are closed)',
  ),
  'request-property-became-required': b(
    'an optional request field became required',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Validation §6.5.3 required)',
  ),
  'request-property-became-optional': c(
    'a required request field became optional',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-additional-properties-closed': b(
    'a request object no longer accepts other fields',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Core §10.3.2.3 additionalProperties)',
  ),
  'request-additional-properties-opened': c(
    'a request object accepts other fields',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-alternative-removed': b(
    'a oneOf/anyOf alternative of a request was removed',
    'a client built against the old description: requests it sends may now be refused (RFC 9110 §15.5.1, 400; JSON Schema 2020-12 Core §10.2.1.2 anyOf, §10.2.1.3 oneOf)',
  ),
  'request-alternative-added': c(
    'a oneOf/anyOf alternative of a request was added',
    'a client built against the old description: every request it sends is still accepted',
  ),
  'request-schema-changed': w(
    'a request schema changed in a way dataapi does not classify',
    'not classified: check whether what a client built against the old description sends is still admitted (JSON Schema 2020-12)',
  ),
  // Responses.
  'response-success-status-removed': b(
    'a success status was removed',
    'a client built against the old description: it waits for a success status no longer answered (OpenAPI 3.1.0 §4.8.16 Responses Object)',
  ),
  'response-status-removed': b(
    'an error status was removed',
    'a client built against the old description: it handles an error status no longer declared, and meets another instead (OpenAPI 3.1.0 §4.8.16 Responses Object)',
  ),
  'response-status-added': w(
    'a new status can be answered',
    "a client built against the old description: it may meet a status it does not handle (OpenAPI 3.1.0 §4.8.16 Responses Object; RFC 9110 §15: an unknown code is read as its class's x00)",
  ),
  'response-media-type-changed': b(
    'the response media type changed',
    'a client built against the old description: it parses the old media type (RFC 9110 §8.3 Content-Type; OpenAPI 3.1.0 §4.8.17 Response Object: content)',
  ),
  'response-body-removed': b(
    'the response no longer has a body',
    'a client built against the old description: it reads a body no longer sent (OpenAPI 3.1.0 §4.8.17 Response Object: content)',
  ),
  'response-required-header-removed': b(
    'a required response header was removed',
    'a client built against the old description: it reads a header no longer sent (OpenAPI 3.1.0 §4.8.21 Header Object: required)',
  ),
  'response-header-removed': w(
    'an optional response header was removed',
    'a client built against the old description: it may read an optional header no longer sent (OpenAPI 3.1.0 §4.8.17 Response Object: headers)',
  ),
  // Response schemas (bodies and headers).
  'response-type-changed': b(
    'a response value can have a type clients do not expect',
    'a client built against the old description: it parses a value of a type it does not expect (JSON Schema 2020-12 Validation §6.1.1 type)',
  ),
  'response-type-narrowed': c(
    'a response value has fewer possible types',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-enum-value-added': w(
    'a response enum has a new value (breaks strict clients)',
    'a client built against the old description: a strict client meets a value it does not know (JSON Schema 2020-12 Validation §6.1.2 enum)',
  ),
  'response-enum-value-removed': c(
    'a response enum value is no longer sent',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-bounds-widened': w(
    'a response bound was relaxed (breaks strict clients)',
    'a client built against the old description: a strict client meets a value outside the old bounds (JSON Schema 2020-12 Validation §6.2 to §6.4)',
  ),
  'response-bounds-narrowed': c(
    'a response bound was tightened',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-constraint-removed': w(
    'a pattern or format of a response was removed or changed',
    'a client built against the old description: a value may lack the pattern or format it relies on (JSON Schema 2020-12 Validation §6.3.3 pattern, §7 format)',
  ),
  'response-constraint-added': c(
    'a pattern or format was added to a response',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-property-removed': b(
    'a required response field was removed',
    'a client built against the old description: it reads a required field no longer sent (JSON Schema 2020-12 Validation §6.5.3 required)',
  ),
  'response-optional-property-removed': w(
    'an optional response field was removed',
    'a client built against the old description: it may read an optional field no longer sent',
  ),
  'response-property-became-optional': b(
    'a response field clients rely on became optional',
    'a client built against the old description: it relies on a field that may now be missing (JSON Schema 2020-12 Validation §6.5.3 required)',
  ),
  'response-property-became-required': c(
    'a response field is now always present',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-property-added': c(
    'a response field was added',
    'a client built against the old description: fields it does not read are ignored, unless it is strict (JSON Schema 2020-12 Core §10.3.2.3 additionalProperties)',
  ),
  'response-additional-properties-opened': w(
    'a response object may carry undeclared fields',
    'a client built against the old description: a strict client meets undeclared fields (JSON Schema 2020-12 Core §10.3.2.3 additionalProperties)',
  ),
  'response-additional-properties-closed': c(
    'a response object no longer carries other fields',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-alternative-added': b(
    'a oneOf/anyOf alternative of a response was added',
    'a client built against the old description: it meets a body of a shape it was not written for (JSON Schema 2020-12 Core §10.2.1.2 anyOf, §10.2.1.3 oneOf)',
  ),
  'response-alternative-removed': c(
    'a oneOf/anyOf alternative of a response was removed',
    'a client built against the old description: every response still fits what it reads',
  ),
  'response-schema-changed': w(
    'a response schema changed in a way dataapi does not classify',
    'not classified: check whether a client built against the old description still reads what is sent (JSON Schema 2020-12)',
  ),
} as const satisfies Record<string, DiffRule>;
