/**
 * The verdicts on an exchange: one code per check (what the target must do, and the norm that says
 * so) and the codes of what a run could not test. The suite, fuzzing, the proxy, `--from-har` and
 * `--compare-mock` all take a finding's severity from here (and the user's settings), never from
 * the caller; model/diagnostics.ts joins them with the rest of the catalogue.
 *
 * Three kinds, kept apart: the target breaks the description (failure); the description is wrong
 * or silent (warning, in diagnostics-description.ts); the suite lacked what it needed (not tested,
 * with the reason).
 */
import type { NormedEntry } from './diagnostics-types.ts';

/** A check of an exchange: a violation is the target's fault. */
const check = (title: string, action: string, norm: string): NormedEntry => ({
  severity: 'failure',
  title,
  action,
  norm,
  sources: ['check'],
});

/** What a run could not test, and why: never a failure, never a warning about the description. */
const notTested = (title: string, action: string, norm: string): NormedEntry => ({
  severity: 'not-tested',
  title,
  action,
  norm,
  sources: ['contract'],
});

export const CHECK_DIAGNOSTICS = {
  status: check(
    'the HTTP status is one the operation declares (its success status on a valid request)',
    'answer with a declared status, or declare the status',
    'OpenAPI 3.1 §4.8.16 Responses Object; RFC 9110 §15',
  ),
  'content-type': check(
    'the response media type is the declared one',
    'answer with the media type the response declares',
    'OpenAPI 3.1 §4.8.17 Response Object (content); RFC 9110 §8.3',
  ),
  envelope: check(
    "the body uses the operation's envelope spelling, never the other",
    'answer in the envelope the operation names (x-dataapi-envelope)',
    "the service's envelopes (docs/service.md §2; x-dataapi-envelope)",
  ),
  'business-code': check(
    "the body's business code is of the operation's group (success on a valid request)",
    "answer with a code of the operation's group (x-dataapi-business-codes)",
    "the service's business codes (docs/service.md §5; x-dataapi-business-codes)",
  ),
  schema: check(
    'the body validates against the declared schema',
    'answer with a body the schema admits, or correct the schema',
    'OpenAPI 3.1 §4.8.14 Media Type Object (schema); JSON Schema 2020-12 Validation',
  ),
  paging: check(
    'no more items than the page size asked for',
    'answer with at most the number of items asked for',
    "the operation's page-size parameter (x-dataapi-paging, or a limit-like parameter)",
  ),
  auth: check(
    'no key and a wrong key are refused with 401 and the wrong-key code; preview needs no key',
    'refuse requests without valid credentials with 401 (or the declared 403)',
    'OpenAPI 3.1 §4.8.30 Security Requirement Object; RFC 9110 §15.5.2 (401); docs/service.md §3',
  ),
  negative: check(
    'invalid parameters and bodies are refused with 400 or the parameter-error code',
    'validate the request against the declared parameters and body, and refuse what they do not admit with a 4xx',
    'OpenAPI 3.1 §4.8.12 Parameter Object and §4.8.13 Request Body Object; RFC 9110 §15.5.1',
  ),
  'method-path': check(
    'wrong method -> 405 with Allow; unknown path -> 404 (or 401/403 before routing); wrong content type -> 415 (or 400/422)',
    'answer a method the path does not take with 405 and Allow, a path nothing serves with 404, a body of another media type with 415',
    'RFC 9110 §15.5.6 and §10.2.1 (405, Allow), §15.5.5 (404), §15.5.16 (415)',
  ),
  lifecycle: check(
    'asynchronous submit/poll/result and the upload round trip',
    'make the linked operations answer for what their sources created',
    'OpenAPI 3.1 §4.8.20 Link Object; x-dataapi-async',
  ),
  headers: check(
    'declared response headers are present (when required) and of their type',
    'send the declared headers with values their schemas admit',
    'OpenAPI 3.1 §4.8.21 Header Object (required, schema); RFC 9110 §10.2.3 (Retry-After)',
  ),
  deprecation: check(
    'a deprecated operation sends Deprecation, Sunset and its successor Link; others send none',
    'send Deprecation, Sunset and Link (successor-version) on deprecated operations only',
    'OpenAPI 3.1 §4.8.10 Operation Object (deprecated); RFC 9745; RFC 8594; RFC 8288',
  ),
  'response-time': check(
    'every response arrives within --max-response-time',
    'answer faster, or raise --max-response-time',
    "the run's --max-response-time",
  ),
  'server-errors': check(
    'no 5xx and no timeout on any valid or invalid request',
    'answer every request; refuse an invalid one with a 4xx instead of failing',
    'RFC 9110 §15.6 (a 5xx is the server failing a request) and §15.5.1',
  ),
} as const satisfies Record<string, NormedEntry>;

export const VERDICT_DIAGNOSTICS = {
  'toolkit-fault': notTested(
    'the suite built a request that is not what it meant to send (rechecked against the description): its answer says nothing of the target',
    'report it to the toolkit with the request; nothing is wrong with the target',
    "no norm: this toolkit's own error, because the request it built does not fit the description it was built from",
  ),
  'missing-test-data': notTested(
    'a request named a resource the suite made up (no operation creates one to use) and the target answered 404',
    'give the operation a create operation with a link (or an id field the path parameter names), or an example id the deployment has',
    "RFC 9110 §15.5.5 (404: no current representation for the target resource) answered to an identifier the suite invented; not testing it is the suite's convention, like Schemathesis's missing_test_data",
  ),
  'no-credentials': notTested(
    'a secured operation was not tested: no credentials were given (only its refusal of no key and a wrong key)',
    'set DATAAPI_APPKEY to a valid credential',
    'OpenAPI 3.1.0 §4.8.30 Security Requirement Object (the operation requires credentials the run was not given); RFC 9110 §11 HTTP Authentication',
  ),
  'writes-not-allowed': notTested(
    'an operation that writes was not sent against a deployment',
    'run with --allow-writes against a deployment you may write to',
    "RFC 9110 §9.2.1 Safe Methods (an unsafe method may change the deployment's state); sending writes only with --allow-writes is this toolkit's convention",
  ),
} as const satisfies Record<string, NormedEntry>;

/**
 * `--compare-mock`: the deployment and the embedded mock (which answers as the description says)
 * answered the same request differently. A failure: the run exits 1 on any.
 */
export const DRIFT_DIAGNOSTICS = {
  drift: {
    severity: 'failure',
    title:
      'the deployment answered a request otherwise than the embedded mock (status, business code, envelope, media type or the payload fields present)',
    action:
      'bring the deployment (or the description the mock is generated from) in line; the finding shows both answers side by side',
    norm: 'OpenAPI 3.1 §4.8.16 Responses Object and §4.8.14 Media Type Object (schema): the mock answers as the description declares, so a deployment that answers otherwise departs from the same contract',
    sources: ['contract'],
  },
} as const satisfies Record<string, NormedEntry>;
