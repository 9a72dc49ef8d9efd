/**
 * The diagnostics about a description: what the loader and the normaliser repair or ignore, what
 * `dataapi lint` checks, what the mock refuses, and what a contract run blames on the description
 * rather than on the target. One entry per code; model/diagnostics.ts joins them with the diff rules.
 * Titles of lint rules are the SARIF rule descriptions: change one and the SARIF output changes.
 */
import type { DiagnosticEntry } from './diagnostics-types.ts';

/** Found while loading or normalising: repaired or ignored, the run goes on. */
const normalised = (title: string, action: string, load = false): DiagnosticEntry => ({
  severity: 'warning',
  title,
  action,
  sources: [load ? 'load' : 'normalise', 'contract'],
});

const lint = (severity: 'error' | 'warning', title: string, action: string): DiagnosticEntry => ({
  severity,
  title,
  action,
  sources: ['lint'],
});

/** Blamed on the description by a contract run (or the proxy): never a failure unless `--strict`. */
const blamed = (title: string, action: string, norm?: string): DiagnosticEntry => ({
  severity: 'warning',
  title,
  action,
  sources: ['contract'],
  ...(norm !== undefined ? { norm } : {}),
});

export const DESCRIPTION_DIAGNOSTICS = {
  // The loader's repairs, before validation.
  'schema-properties-ref': normalised(
    'properties holds a $ref where a map of property names belongs',
    'write the reference as allOf: [{ $ref }] (it is read that way)',
    true,
  ),
  'converted-from-swagger2': normalised(
    'a Swagger 2.0 description, converted to OpenAPI 3.0 (swagger2openapi) before it is read',
    'nothing is needed; to see the converted document, or to stop converting on every run, convert it once and commit the OpenAPI 3 file',
    true,
  ),
  'swagger2-conversion-loss': normalised(
    'a part of a Swagger 2.0 description that the conversion to OpenAPI 3.0 could not carry over',
    'rewrite that part (the message names what was lost) or write the description in OpenAPI 3',
    true,
  ),
  'schema-ref-not-schema': normalised(
    'a schema $ref names a parameter, body, response or header, not a schema (read as {})',
    "point the $ref at a schema (a parameter's is under its /schema)",
    true,
  ),
  'spec-unknown-property': normalised(
    'an object of the description has a property OpenAPI does not define (ignored)',
    'remove the property, or name it x-... to keep it as an extension',
    true,
  ),
  'spec-ref-misplaced': normalised(
    'a $ref where OpenAPI allows no Reference Object (e.g. a whole content map): read as the object it names, as swagger-parser dereference reads it',
    'write the object in place, or move the $ref to where OpenAPI allows one (a schema, a response, a parameter, a request body, ...)',
    true,
  ),
  'schema-openapi31-in-30': normalised(
    'an OpenAPI 3.1 (JSON Schema 2020-12) construct in a 3.0 schema (type null, a list of types, const, examples, a numeric exclusive bound, ...): read as 3.1 reads it',
    'write it the 3.0 way (nullable: true, enum: [value], example, a boolean exclusive bound), or declare openapi: 3.1.0',
    true,
  ),
  // The normaliser's findings.
  'path-item-ref-cycle': normalised(
    'a path item $ref leads back to itself',
    'point the $ref at a path item that does not refer back',
  ),
  'path-item-ref-dangling': normalised(
    'a path item $ref names no object',
    'fix the $ref or remove the path',
  ),
  'path-item-ref-external': normalised(
    'a path item $ref is not bundled',
    'make the referenced file reachable from the root description',
  ),
  'path-key-relative': normalised(
    'a path key does not start with "/"',
    'start the path key with "/"',
  ),
  'path-key-fragment': normalised(
    'a path key carries a fragment (#...)',
    'drop the fragment; tell operations apart by operationId',
  ),
  'path-key-query': normalised(
    'a path key carries a query (?...)',
    'declare the fixed query values as parameters (with enum or const) instead',
  ),
  'path-parameter-undeclared': normalised(
    'a {name} of the path template is not declared as a path parameter',
    'declare it under parameters with in: path and required: true',
  ),
  'path-parameter-unused': normalised(
    'a path parameter is not in the path template',
    'remove the parameter or add {name} to the path',
  ),
  'operation-shared-route': normalised(
    'operations share a method and path (or an answer fits the sibling that shares its route)',
    'give each operation its own route, or tell them apart by fixed parameters or body media type',
  ),
  'query-name-clash': normalised(
    'a query object written property by property (style form, explode) has a property whose name another query parameter (or object) writes too',
    'rename the property or the parameter, or give the object style deepObject (or content: application/json); the property is not sent',
  ),
  'body-form-not-object': normalised(
    'a form or multipart request body has a schema that is not an object (read as fields of any name)',
    'describe the fields as the properties of an object schema (a file as type string, format binary)',
  ),
  'response-content-forbidden': normalised(
    'a 204, 205 or 304 response (or a 1xx) declares content, which HTTP forbids (read as no body)',
    'remove the content, or answer with 200 where there is a body',
  ),
  'header-content-type': normalised(
    'a response declares a Content-Type header, which OpenAPI says is ignored (the content map names the media types)',
    "remove the header: the keys of the response's content say what Content-Type it is sent with",
  ),
  'media-type-invalid': normalised(
    'a content map key is not a media type or range (type/subtype): read as any media type (*/*)',
    'write the media type (application/pdf) or a range (image/*, */*); say in the description what it depends on',
  ),
  'operation-body-on-get': normalised(
    'a GET, HEAD or DELETE declares a request body, which is not sent',
    'move the values to parameters, or use POST',
  ),
  'security-unknown-scheme': normalised(
    'a security requirement names no declared scheme',
    'declare the scheme under components.securitySchemes or fix its name',
  ),
  'security-same-header': normalised(
    'one security requirement names two schemes sent in the same header, which one request cannot carry (read as alternatives)',
    'list the schemes as separate requirements (either one), or send one of them elsewhere',
  ),
  'security-unsupported-scheme': normalised(
    'a security scheme carries no credential a client sends (not checked)',
    'nothing, if intended; the toolkit checks API keys and HTTP authentication only',
  ),
  'link-unresolved': normalised(
    'a link names no operation of the description (not followed)',
    'name the target by its operationId or a local operationRef',
  ),
  'link-unknown-parameter': normalised(
    'a link sets a parameter its target does not have (ignored)',
    "use one of the target operation's parameter names",
  ),
  'schema-not-object': normalised(
    'a schema is neither an object nor a boolean (read as {})',
    'write the schema as an object',
  ),
  'schema-dangling-ref': normalised(
    'a schema $ref names nothing in the document (read as {})',
    'fix the $ref or add the schema it names',
  ),
  'schema-unresolved-ref': normalised(
    'a schema $ref is not bundled (read as {})',
    'make the referenced file reachable from the root description',
  ),
  'schema-bad-keyword': normalised(
    'a schema keyword has a value of the wrong kind (ignored)',
    'give the keyword a value of the kind JSON Schema defines',
  ),
  'schema-bad-type': normalised(
    'type names no JSON Schema type',
    'use string, number, integer, boolean, object, array or null',
  ),
  'schema-bad-pattern': normalised(
    'a pattern is not a JavaScript (u) regular expression (ignored)',
    'rewrite the pattern in the ECMA-262 syntax JSON Schema uses',
  ),
  'schema-bad-default': normalised(
    'a default does not fit its own schema (ignored)',
    'change the default or the schema so they agree',
  ),
  'schema-empty-enum': normalised(
    'enum: [] allows no value (ignored)',
    'list the allowed values, or remove the enum',
  ),
  'schema-duplicate-required': normalised(
    'required lists a name twice, or a non-name (deduplicated)',
    'list each required property once',
  ),
  'schema-dialect': normalised(
    'a schema names another $schema dialect (read as JSON Schema 2020-12)',
    'remove $schema, or write the schema in JSON Schema 2020-12, the dialect of OpenAPI 3.1',
  ),
  'schema-2019-09-keyword': normalised(
    'a JSON Schema 2019-09 keyword ($recursiveRef, $recursiveAnchor) is read as its 2020-12 form',
    'write $dynamicRef / $ref instead',
  ),
  // dataapi lint (rule ids are stable: scripts and CI filters rely on them).
  'operation-category': lint(
    'error',
    'every operation has a category: a first tag that is declared at the root',
    'add tags whose first entry is one of the root tags',
  ),
  'operation-envelope': lint(
    'error',
    'every operation names its envelope in x-dataapi-envelope (or none)',
    'declare x-dataapi-envelope: capitalised, lowerCamel or none',
  ),
  'business-code-group': lint(
    'error',
    'every enveloped operation names its business code group',
    'declare x-dataapi-business-codes with a group of x-dataapi-business-code-groups (none on a plain JSON operation)',
  ),
  'rate-limit': lint(
    'error',
    'every operation has a rate limit: its own or the root default',
    'declare x-dataapi-rate-limit { limit, per } on the operation or at the root',
  ),
  'example-missing': lint(
    'error',
    'every request body and 200 response has an example',
    'add an example (or examples) to the media type',
  ),
  'example-invalid': {
    severity: 'error',
    title: 'every example validates against its schema',
    action:
      'fix the example or the schema; the mock answers with a schema sample instead (or refuses to start with --strict-examples)',
    sources: ['lint', 'mock', 'contract'],
  },
  'preview-variant': lint(
    'error',
    'every detailed operation lists its /demo preview variant explicitly',
    'list the /demo path with x-dataapi-preview-of, security: [] and its own examples (dataapi scaffold does)',
  ),
  'preview-consistent': lint(
    'error',
    'a preview variant takes no key and answers like its operation',
    'give the variant security: [] and the envelope, code group and statuses of its operation',
  ),
  'preview-declared': lint(
    'warning',
    'every operation says whether it is detailed (x-dataapi-preview)',
    'declare x-dataapi-preview: true (with its /demo variant) or false',
  ),
  'operation-id-missing': lint(
    'warning',
    'every operation has an operationId',
    'add an operationId (generated names otherwise change with the path)',
  ),
  'operation-id-unique': lint(
    'error',
    'no two operations share an operationId',
    'rename one of the operations',
  ),
  'operation-id-safe': lint(
    'warning',
    'an operationId is used as is in generated code',
    'use an identifier (letters, digits, _ and $, not a reserved word) unique in the description',
  ),
  'error-responses': lint(
    'error',
    'every operation declares the error responses of docs/service.md §4',
    'declare 400, 401, 403, 404, 405, 415, 429, 500 and 502 one by one',
  ),
  'extension-invalid': lint(
    'error',
    'x-dataapi-* extensions are well formed',
    'correct the extension as the message says (see the README on extensions)',
  ),
  'deprecation-sunset': lint(
    'error',
    "x-dataapi-sunset and x-dataapi-deprecated-since are days (YYYY-MM-DD) on a deprecated operation, and a live operation's sunset is still to come",
    'write the days as YYYY-MM-DD on a deprecated operation, and remove the operation once its sunset has passed',
  ),
  'swagger2-converted': lint(
    'warning',
    'a Swagger 2.0 description is read after its conversion to OpenAPI 3.0',
    'convert the description to OpenAPI 3 (swagger2openapi) and commit that instead',
  ),
  'deprecation-successor': lint(
    'error',
    'x-dataapi-successor names another operation by its operationId',
    'name an existing operationId other than its own',
  ),
  // The mock.
  'response-schema-not-compiled': {
    severity: 'warning',
    title: 'a response schema cannot be compiled: answers are not checked against it',
    action: 'simplify or fix the schema so Ajv (JSON Schema 2020-12) compiles it',
    sources: ['mock'],
  },
  // The server stubs and the mock.
  'operation-not-served': {
    severity: 'warning',
    title:
      'an operation cannot be served (its schemas do not compile or its path cannot be routed): it answers 501',
    action: 'fix the schema or path the message names',
    sources: ['server', 'mock'],
  },
  // A contract run (and the proxy).
  'undeclared-status': blamed(
    'the target answered a status the operation does not declare',
    'declare the status (or a range or default response), or fix the target',
    'OpenAPI 3.1 §4.8.16 Responses Object (the description does not cover the status)',
  ),
  'undeclared-content': blamed(
    'a response carries a body where its status declares no content: the description says nothing of it',
    "declare the response's content (media type and schema), or send no body",
    'OpenAPI 3.1 §4.8.17 Response Object (content absent: the body is not described)',
  ),
  'path-parameter-greedy': blamed(
    "a path under an operation's path answered as the operation: its last parameter takes the rest of the URL, slashes and all",
    'say so in the parameter (a description or x-dataapi-greedy), or let the server refuse paths with more segments',
    'OpenAPI 3.1 §4.8.12 Parameter Object (a path parameter is one segment); RFC 9110 §15.5.5',
  ),
  undocumented: blamed(
    'a request the description does not document (no path, or not that method) was answered as if it were',
    'document the route, or have the server refuse it with 404 (path) or 405 (method)',
    'OpenAPI 3.1 §4.8.8 Paths Object; RFC 9110 §15.5.5 and §15.5.6',
  ),
  'unsatisfiable-schema': blamed(
    'a response schema admits no value the sampler can find',
    'loosen the schema: its constraints contradict each other',
    'JSON Schema 2020-12 Validation',
  ),
  'ambiguous-one-of': blamed(
    "the body fits more than one option of a oneOf: the description's options overlap",
    'make the options exclusive (a discriminator, const or required properties), or use anyOf',
    'JSON Schema 2020-12 Core §10.2.1.3 (oneOf: exactly one)',
  ),
  'no-responses': blamed(
    'the operation declares no responses (or none for a valid request)',
    'declare its success response with its media type and schema',
    'OpenAPI 3.1 §4.8.16 Responses Object',
  ),
  'paging-contradiction': blamed(
    "a page size asks for fewer items than the answer's schema requires (minItems)",
    'lower minItems of the list, or do not mark the operation as paged',
  ),
  'link-expression-unresolvable': blamed(
    'a link reads a value the response schema cannot hold (not followed)',
    'point the runtime expression at a property of the response schema',
  ),
  'link-value-mismatch': blamed(
    "a link's values do not fit the target's parameters (not followed)",
    "make the linked values fit the target's parameter schemas",
  ),
  'fuzz-no-valid-value': blamed(
    'fuzzing found too few valid requests it could send',
    'check the request schemas: they admit almost no value',
  ),
  observed: blamed(
    'the proxy saw an exchange the description does not account for',
    'compare the exchange with the description and declare what is missing',
  ),
} as const satisfies Record<string, DiagnosticEntry>;
