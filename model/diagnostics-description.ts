/**
 * The diagnostics about a description: what the loader and the normaliser repair or ignore, what
 * `dataapi lint` checks, what the mock refuses, and what a contract run blames on the description
 * rather than on the target. One entry per code; model/diagnostics.ts joins them with the diff rules.
 * Titles of lint rules are the SARIF rule descriptions: change one and the SARIF output changes.
 */
import type { NormedEntry } from './diagnostics-types.ts';

/** Found while loading or normalising: repaired or ignored, the run goes on. */
const normalised = (title: string, action: string, norm: string, load = false): NormedEntry => ({
  severity: 'warning',
  title,
  action,
  norm,
  sources: [load ? 'load' : 'normalise', 'contract'],
});

const lint = (
  severity: 'error' | 'warning',
  title: string,
  action: string,
  norm: string,
): NormedEntry => ({
  severity,
  title,
  action,
  norm,
  sources: ['lint'],
});

/** Blamed on the description by a contract run (or the proxy): never a failure unless `--strict`. */
const blamed = (title: string, action: string, norm: string): NormedEntry => ({
  severity: 'warning',
  title,
  action,
  norm,
  sources: ['contract'],
});

/**
 * What the loader refuses (exit 2, nothing written, each problem with its file, pointer and line).
 * SpecError carries the code in the form scripts match on: `spec-syntax` is DATAAPI_SPEC_SYNTAX.
 */
const refused = (title: string, action: string, norm: string): NormedEntry => ({
  severity: 'error',
  title,
  action,
  sources: ['load'],
  norm,
});

export const LOAD_ERRORS = {
  'spec-unreadable': refused(
    'the description, or a file it refers to, cannot be read',
    'check the path (or the URL) and that the file is readable',
    'no norm: a file the toolkit cannot read is no description at all',
  ),
  'spec-syntax': refused(
    'the description is not YAML or JSON that parses',
    'fix the syntax at the line named',
    'OpenAPI 3.1.0 §4.2 Format: a document is JSON or YAML 1.2 (RFC 8259; YAML 1.2)',
  ),
  'spec-invalid': refused(
    "the description breaks OpenAPI's own schema where no reader goes on (swagger-parser's dereference refuses it too)",
    'fix each problem at the line named',
    "the OpenAPI Specification's schema for the document's version (3.0.x, 3.1.0; Swagger 2.0)",
  ),
  'spec-ref': refused(
    'a $ref the description uses points nowhere',
    'point the $ref at an object that exists (the file and the JSON pointer)',
    'OpenAPI 3.1.0 §4.8.23 Reference Object: $ref REQUIRED, the reference identifier (RFC 3986)',
  ),
  'spec-extension': refused(
    'a dataapi x- extension of the description holds a value it cannot take',
    'correct the extension (docs/service.md and the README list the x- extensions and their values)',
    "OpenAPI 3.1.0 §4.9 Specification Extensions: their meaning is the tool's; this toolkit's are documented in the README",
  ),
} as const satisfies Record<string, NormedEntry>;

/** A code of what the loader refuses. */
export type LoadErrorCode = keyof typeof LOAD_ERRORS;

export const DESCRIPTION_DIAGNOSTICS = {
  ...LOAD_ERRORS,
  // The loader's repairs, before validation.
  'schema-properties-ref': normalised(
    'properties holds a $ref where a map of property names belongs',
    'write the reference as allOf: [{ $ref }] (it is read that way)',
    'JSON Schema 2020-12 Core §10.3.2.1 properties (a map of property names to schemas: a $ref there names a property "$ref"); OpenAPI 3.1.0 §4.8.24 Schema Object',
    true,
  ),
  'converted-from-swagger2': normalised(
    'a Swagger 2.0 description, converted to OpenAPI 3.0 (swagger2openapi) before it is read',
    'nothing is needed; to see the converted document, or to stop converting on every run, convert it once and commit the OpenAPI 3 file',
    'OpenAPI 3.1.0 §4.8.1 OpenAPI Object: openapi (REQUIRED, the OAS version); a Swagger 2.0 document carries swagger: "2.0" instead. Converting it is this toolkit\'s choice (swagger2openapi), not a norm',
    true,
  ),
  'swagger2-conversion-loss': normalised(
    'a part of a Swagger 2.0 description that the conversion to OpenAPI 3.0 could not carry over',
    'rewrite that part (the message names what was lost) or write the description in OpenAPI 3',
    'no norm: a limit of the conversion (swagger2openapi) from Swagger 2.0 to OpenAPI 3.0, where a 2.0 construct has no 3.0 counterpart',
    true,
  ),
  'schema-ref-not-schema': normalised(
    'a schema $ref names a parameter, body, response or header, not a schema (read as {})',
    "point the $ref at a schema (a parameter's is under its /schema)",
    'JSON Schema 2020-12 Core §8.2.3.1 $ref (it names the schema to apply); OpenAPI 3.1.0 §4.8.24 Schema Object',
    true,
  ),
  'spec-unknown-property': normalised(
    'an object of the description has a property OpenAPI does not define (ignored)',
    'remove the property, or name it x-... to keep it as an extension',
    'OpenAPI 3.1.0 §4.2 Format (fixed and patterned fields) and §4.9 Specification Extensions (other fields start with x-)',
    true,
  ),
  'spec-ref-misplaced': normalised(
    'a $ref where OpenAPI allows no Reference Object (e.g. a whole content map): read as the object it names, as swagger-parser dereference reads it',
    'write the object in place, or move the $ref to where OpenAPI allows one (a schema, a response, a parameter, a request body, ...)',
    "OpenAPI 3.1.0 §4.8.23 Reference Object: allowed only where a field's type lists Reference Object (e.g. not for a content map, §4.8.13 Request Body Object: content)",
    true,
  ),
  'schema-openapi31-in-30': normalised(
    'an OpenAPI 3.1 (JSON Schema 2020-12) construct in a 3.0 schema (type null, a list of types, const, examples, a numeric exclusive bound, ...): read as 3.1 reads it',
    'write it the 3.0 way (nullable: true, enum: [value], example, a boolean exclusive bound), or declare openapi: 3.1.0',
    'OpenAPI 3.0.3 Schema Object (JSON Schema Wright-00 subset: type a single string, nullable, example, boolean exclusiveMinimum/exclusiveMaximum) against OpenAPI 3.1.0 §4.8.24 Schema Object (JSON Schema 2020-12)',
    true,
  ),
  'spec-missing-field': normalised(
    "a field OpenAPI requires is missing or written with no value (a response's description, the root's info): read without it, as swagger-parser dereference reads it",
    'write the field (a response needs a description, the root an info with title and version)',
    "OpenAPI 3.1.0 §4.8.1 OpenAPI Object (info REQUIRED) and §4.8.17 Response Object (description REQUIRED); the field's value where its type is a string or a map",
    true,
  ),
  'spec-component-name': normalised(
    'a component name has characters OpenAPI does not allow in one (only a-z A-Z 0-9 . _ -): read as written',
    'rename the component (and its $refs) with the allowed characters only',
    'OpenAPI 3.1.0 §4.8.7 Components Object: every key MUST match ^[a-zA-Z0-9\\.\\-_]+$',
    true,
  ),
  'spec-path-parameter-optional': normalised(
    'a path parameter is written required: false: read as required (a path parameter always is)',
    'write required: true, or make it a query parameter if it may be left out',
    'OpenAPI 3.1.0 §4.8.12 Parameter Object: required, "If the parameter location is path, this property is REQUIRED and its value MUST be true"',
    true,
  ),
  'spec-ref-siblings': normalised(
    'a $ref beside keys a Reference Object does not have: read as the object it names with those keys over it, as swagger-parser dereference reads it',
    'write the keys into the object the $ref names, or write the object in place',
    'OpenAPI 3.0.3 Reference Object: "This object cannot be extended with additional properties and any properties added SHALL be ignored" (3.1.0 §4.8.23 allows only summary and description)',
    true,
  ),
  'yaml-merge-key': normalised(
    'a YAML merge key (<<: *anchor): read as YAML 1.1 and swagger-parser read it, the anchored keys merged in',
    'write the keys out (or use a $ref to a shared object): YAML 1.2 parsers keep << as a key',
    'OpenAPI 3.1.0 §4.2 Format: YAML 1.2, which has no merge key (it was a YAML 1.1 type)',
    true,
  ),
  'ref-to-text': normalised(
    'a $ref to a file that is not JSON or YAML (a Markdown page, a code sample): read as its text, as swagger-parser reads it',
    'write the text in place (description: |), or keep it in a JSON or YAML file the $ref names',
    'OpenAPI 3.1.0 §4.8.23 Reference Object: a $ref names an object of an OpenAPI document, which is JSON or YAML (§4.2)',
    true,
  ),
  'schema-unknown-keyword': normalised(
    'a schema keyword OpenAPI 3.0 does not have (a misspelling, optional: true), or a type that is no JSON type (int64): ignored',
    'remove or correct the keyword (a format: int64 beside type: integer), or name it x-... to keep it as an extension',
    'OpenAPI 3.0.3 Schema Object: the keywords it takes from JSON Schema Wright-00 and its own (nullable, discriminator, readOnly, writeOnly, xml, externalDocs, example, deprecated); type is one of the JSON types',
    true,
  ),
  // The normaliser's findings.
  'path-item-ref-cycle': normalised(
    'a path item $ref leads back to itself',
    'point the $ref at a path item that does not refer back',
    'OpenAPI 3.1.0 §4.8.9 Path Item Object: $ref (the referenced structure MUST be a Path Item Object; a cycle reaches none)',
  ),
  'path-item-ref-dangling': normalised(
    'a path item $ref names no object',
    'fix the $ref or remove the path',
    'OpenAPI 3.1.0 §4.8.9 Path Item Object: $ref (the referenced structure MUST be a Path Item Object); §4.6 Relative References in URIs',
  ),
  'path-item-ref-external': normalised(
    'a path item $ref is not bundled',
    'make the referenced file reachable from the root description',
    'OpenAPI 3.1.0 §4.8.9 Path Item Object: $ref and §4.6 Relative References in URIs; that the file must be reachable from the root is a limit of this toolkit (it reads one bundled document)',
  ),
  'path-key-relative': normalised(
    'a path key does not start with "/"',
    'start the path key with "/"',
    'OpenAPI 3.1.0 §4.8.8 Paths Object: /{path} (the field name MUST begin with a forward slash)',
  ),
  'path-key-fragment': normalised(
    'a path key carries a fragment (#...)',
    'drop the fragment; tell operations apart by operationId',
    'OpenAPI 3.1.0 §4.8.8 Paths Object: /{path} is a URL path; RFC 3986 §3.5 (a fragment is not part of the path) and RFC 9110 §7.1 (the target URI excludes the fragment)',
  ),
  'path-key-query': normalised(
    'a path key carries a query (?...)',
    'declare the fixed query values as parameters (with enum or const) instead',
    'OpenAPI 3.1.0 §4.8.8 Paths Object: /{path} is a URL path; RFC 3986 §3.4 (the query is not part of the path); query values are Parameter Objects with in: query (§4.8.12)',
  ),
  'path-parameter-undeclared': normalised(
    'a {name} of the path template is not declared as a path parameter',
    'declare it under parameters with in: path and required: true',
    'OpenAPI 3.1.0 §3.2 Path Templating (each template expression MUST correspond to a path parameter) and §4.8.12 Parameter Object: required (MUST be true for in: path)',
  ),
  'path-parameter-unused': normalised(
    'a path parameter is not in the path template',
    'remove the parameter or add {name} to the path',
    'OpenAPI 3.1.0 §4.8.12 Parameter Object: name (for in: path it MUST correspond to a template expression of the path)',
  ),
  'operation-shared-route': normalised(
    'operations share a method and path (or an answer fits the sibling that shares its route)',
    'give each operation its own route, or tell them apart by fixed parameters or body media type',
    'OpenAPI 3.1.0 §4.8.8 Paths Object (templated paths with the same hierarchy MUST NOT exist) and §4.8.9 Path Item Object (one operation per method)',
  ),
  'query-name-clash': normalised(
    'a query object written property by property (style form, explode) has a property whose name another query parameter (or object) writes too',
    'rename the property or the parameter, or give the object style deepObject (or content: application/json); the property is not sent',
    'OpenAPI 3.1.0 §4.8.12 Parameter Object: style form with explode writes each property as its own name=value pair; a parameter is unique by name and location (§4.8.10 Operation Object: parameters)',
  ),
  'body-form-not-object': normalised(
    'a form or multipart request body has a schema that is not an object (read as fields of any name)',
    'describe the fields as the properties of an object schema (a file as type string, format binary)',
    "OpenAPI 3.1.0 §4.8.14 Media Type Object: x-www-form-urlencoded and multipart content (the schema's properties are the fields) and §4.8.15 Encoding Object",
  ),
  'response-content-forbidden': normalised(
    'a 204, 205 or 304 response (or a 1xx) declares content, which HTTP forbids (read as no body)',
    'remove the content, or answer with 200 where there is a body',
    'RFC 9110 §6.4.1 (1xx, 204 and 304 responses do not include content) and §15.3.6 (a server MUST NOT generate content in a 205)',
  ),
  'header-name-invalid': normalised(
    'a header or cookie parameter, or the header or cookie an apiKey security scheme names, has a name that is no HTTP field or cookie name (empty, or with spaces): it cannot be sent (ignored)',
    "write the name as a token (letters, digits and !#$%&'*+-.^_`|~), or remove the parameter or scheme",
    'RFC 9110 §5.1 Field Names (a field name is a token, §5.6.2) and RFC 6265 §4.1.1 (a cookie name is a token); OpenAPI 3.1.0 §4.8.12 Parameter Object: name (REQUIRED, the name of the parameter) and §4.8.27 Security Scheme Object: name (the name of the header, query or cookie parameter to be used)',
  ),
  'header-content-type': normalised(
    'a response declares a Content-Type header, which OpenAPI says is ignored (the content map names the media types)',
    "remove the header: the keys of the response's content say what Content-Type it is sent with",
    'OpenAPI 3.1.0 §4.8.17 Response Object: headers ("If a response header is defined with the name Content-Type, it SHALL be ignored")',
  ),
  'media-type-invalid': normalised(
    'a content map key is not a media type or range (type/subtype): read as any media type (*/*)',
    'write the media type (application/pdf) or a range (image/*, */*); say in the description what it depends on',
    'OpenAPI 3.1.0 §4.8.13 Request Body Object and §4.8.17 Response Object: content keys are media types or media type ranges (RFC 9110 §8.3.1, §12.5.1)',
  ),
  'operation-body-on-get': normalised(
    'a GET, HEAD or DELETE declares a request body, which is not sent',
    'move the values to parameters, or use POST',
    'OpenAPI 3.1.0 §4.8.10 Operation Object: requestBody (for GET, HEAD and DELETE no well-defined semantics, SHOULD be avoided); RFC 9110 §9.3.1, §9.3.2, §9.3.5',
  ),
  'security-unknown-scheme': normalised(
    'a security requirement names no declared scheme',
    'declare the scheme under components.securitySchemes or fix its name',
    'OpenAPI 3.1.0 §4.8.30 Security Requirement Object: {name} (each name MUST correspond to a scheme declared in components.securitySchemes, §4.8.7)',
  ),
  'security-same-header': normalised(
    'one security requirement names two schemes sent in the same header, which one request cannot carry (read as alternatives)',
    'list the schemes as separate requirements (either one), or send one of them elsewhere',
    'OpenAPI 3.1.0 §4.8.30 Security Requirement Object (all schemes of one requirement are needed together) against RFC 9110 §11.6.2 (one Authorization field carries one credential)',
  ),
  'security-unsupported-scheme': normalised(
    'a security scheme carries no credential a client sends (not checked)',
    'nothing, if intended; the toolkit checks API keys and HTTP authentication only',
    'no norm: a limit of this toolkit, which sends only apiKey and http credentials (OpenAPI 3.1.0 §4.8.27 Security Scheme Object: type oauth2, openIdConnect and mutualTLS are not sent)',
  ),
  'link-unresolved': normalised(
    'a link names no operation of the description (not followed)',
    'name the target by its operationId or a local operationRef',
    'OpenAPI 3.1.0 §4.8.20 Link Object: operationId (an existing, resolvable operation) and operationRef; following only local references is a limit of this toolkit',
  ),
  'link-unknown-parameter': normalised(
    'a link sets a parameter its target does not have (ignored)',
    "use one of the target operation's parameter names",
    'OpenAPI 3.1.0 §4.8.20 Link Object: parameters (keys are parameter names of the target operation)',
  ),
  'schema-self-composed': normalised(
    'a schema is one of its own allOf/anyOf/oneOf branches with no object or list between (typed unknown in types.ts)',
    'put the recursion inside an object property or a list (items), where a value can end',
    'JSON Schema 2020-12 Core, Guarding Against Infinite Recursion (schemas SHOULD NOT nest recursively with no instance location between: the behavior is undefined); OpenAPI 3.1.0 §4.8.24 Schema Object',
  ),
  'schema-not-object': normalised(
    'a schema is neither an object nor a boolean (read as {})',
    'write the schema as an object',
    'JSON Schema 2020-12 Core §4.3 (a JSON Schema MUST be an object or a boolean); OpenAPI 3.1.0 §4.8.24 Schema Object',
  ),
  'schema-dangling-ref': normalised(
    'a schema $ref names nothing in the document (read as {})',
    'fix the $ref or add the schema it names',
    'JSON Schema 2020-12 Core §8.2.3.1 $ref; OpenAPI 3.1.0 §4.8.23 Reference Object: $ref',
  ),
  'schema-unresolved-ref': normalised(
    'a schema $ref is not bundled (read as {})',
    'make the referenced file reachable from the root description',
    'JSON Schema 2020-12 Core §8.2.3.1 $ref; OpenAPI 3.1.0 §4.6 Relative References in URIs; that the file must be reachable from the root is a limit of this toolkit',
  ),
  'schema-bad-keyword': normalised(
    'a schema keyword has a value of the wrong kind (ignored)',
    'give the keyword a value of the kind JSON Schema defines',
    "JSON Schema 2020-12 Validation §6 and Core §10 (each keyword's value MUST be of the kind the keyword defines)",
  ),
  'schema-bad-type': normalised(
    'type names no JSON Schema type',
    'use string, number, integer, boolean, object, array or null',
    'JSON Schema 2020-12 Validation §6.1.1 type (a string or array of the primitive types, or integer)',
  ),
  'schema-bad-pattern': normalised(
    'a pattern is not a JavaScript (u) regular expression (ignored)',
    'rewrite the pattern in the ECMA-262 syntax JSON Schema uses',
    'JSON Schema 2020-12 Validation §6.3.3 pattern (SHOULD be a valid ECMA-262 regular expression) and Core §6.4 Regular Expressions',
  ),
  'schema-bad-default': normalised(
    'a default does not fit its own schema (ignored)',
    'change the default or the schema so they agree',
    'JSON Schema 2020-12 Validation §9.2 default (RECOMMENDED to be valid against its schema)',
  ),
  'schema-empty-enum': normalised(
    'enum: [] allows no value (ignored)',
    'list the allowed values, or remove the enum',
    'JSON Schema 2020-12 Validation §6.1.2 enum (the array SHOULD have at least one element)',
  ),
  'schema-duplicate-required': normalised(
    'required lists a name twice, or a non-name (deduplicated)',
    'list each required property once',
    'JSON Schema 2020-12 Validation §6.5.3 required (elements MUST be strings and MUST be unique)',
  ),
  'schema-dialect': normalised(
    'a schema names another $schema dialect (read as JSON Schema 2020-12)',
    'remove $schema, or write the schema in JSON Schema 2020-12, the dialect of OpenAPI 3.1',
    'OpenAPI 3.1.0 §4.8.24 Schema Object (the default dialect) and §4.8.1 OpenAPI Object: jsonSchemaDialect; JSON Schema 2020-12 Core §8.1.1 $schema. Reading other dialects as 2020-12 is a limit of this toolkit',
  ),
  'schema-2019-09-keyword': normalised(
    'a JSON Schema 2019-09 keyword ($recursiveRef, $recursiveAnchor) is read as its 2020-12 form',
    'write $dynamicRef / $ref instead',
    "JSON Schema 2020-12 Core §8.2.3.2 $dynamicRef and $dynamicAnchor, which replace 2019-09's $recursiveRef and $recursiveAnchor",
  ),
  // dataapi lint (rule ids are stable: scripts and CI filters rely on them).
  'operation-category': lint(
    'error',
    'every operation has a category: a first tag that is declared at the root',
    'add tags whose first entry is one of the root tags',
    "the service's convention: docs/service.md §1 (twelve categories); OpenAPI 3.1.0 §4.8.10 Operation Object: tags and §4.8.22 Tag Object make tags optional",
  ),
  'operation-envelope': lint(
    'error',
    'every operation names its envelope in x-dataapi-envelope (or none)',
    'declare x-dataapi-envelope: capitalised, lowerCamel or none',
    "the service's convention: docs/service.md §2 (response envelope); x-dataapi-envelope is a Specification Extension (OpenAPI 3.1.0 §4.9)",
  ),
  'business-code-group': lint(
    'error',
    'every enveloped operation names its business code group',
    'declare x-dataapi-business-codes with a group of x-dataapi-business-code-groups (none on a plain JSON operation)',
    "the service's convention: docs/service.md §5 (business status codes); x-dataapi-business-codes is a Specification Extension (OpenAPI 3.1.0 §4.9)",
  ),
  'rate-limit': lint(
    'error',
    'every operation has a rate limit: its own or the root default',
    'declare x-dataapi-rate-limit { limit, per } on the operation or at the root',
    "the service's convention: docs/service.md §7 (rate limits; a request over the limit is refused, RFC 6585 §4, 429)",
  ),
  'example-missing': lint(
    'error',
    'every request body and 200 response has an example',
    'add an example (or examples) to the media type',
    "the service's convention (generated documentation and the mock answer with examples); OpenAPI 3.1.0 §4.8.14 Media Type Object makes example and examples optional",
  ),
  'example-invalid': {
    severity: 'error',
    title: 'every example validates against its schema',
    action:
      'fix the example or the schema; the mock answers with a schema sample instead (or refuses to start with --strict-examples)',
    sources: ['lint', 'mock', 'contract'],
    norm: 'OpenAPI 3.1.0 §4.8.14 Media Type Object and §4.8.12 Parameter Object: example (SHOULD match the schema) and §4.8.19 Example Object',
  },
  'preview-variant': lint(
    'error',
    'every detailed operation lists its /demo preview variant explicitly',
    'list the /demo path with x-dataapi-preview-of, security: [] and its own examples (dataapi scaffold does)',
    "the service's convention: docs/service.md §1 (each detailed operation has a preview variant at its path plus /demo)",
  ),
  'preview-consistent': lint(
    'error',
    'a preview variant takes no key and answers like its operation',
    'give the variant security: [] and the envelope, code group and statuses of its operation',
    "the service's convention: docs/service.md §1 (the preview takes no key); OpenAPI 3.1.0 §4.8.10 Operation Object: security (an empty array removes the top-level requirement)",
  ),
  'preview-declared': lint(
    'warning',
    'every operation says whether it is detailed (x-dataapi-preview)',
    'declare x-dataapi-preview: true (with its /demo variant) or false',
    "the service's convention: docs/service.md §1 (x-dataapi-preview marks a detailed operation)",
  ),
  'operation-id-missing': lint(
    'warning',
    'every operation has an operationId',
    'add an operationId (generated names otherwise change with the path)',
    'OpenAPI 3.1.0 §4.8.10 Operation Object: operationId (optional in OpenAPI; this toolkit requires it because generated names follow it)',
  ),
  'operation-id-unique': lint(
    'error',
    'no two operations share an operationId',
    'rename one of the operations',
    'OpenAPI 3.1.0 §4.8.10 Operation Object: operationId (MUST be unique among all operations described in the API)',
  ),
  'operation-id-safe': lint(
    'warning',
    'an operationId is used as is in generated code',
    'use an identifier (letters, digits, _ and $, not a reserved word) unique in the description',
    'OpenAPI 3.1.0 §4.8.10 Operation Object: operationId (RECOMMENDED to follow common programming naming conventions); generated code needs an ECMAScript identifier',
  ),
  'error-responses': lint(
    'error',
    'every operation declares the error responses of docs/service.md §4',
    'declare 400, 401, 403, 404, 405, 415, 429, 500 and 502 one by one',
    "the service's convention: docs/service.md §4 (the error table); RFC 9110 §15.5 and §15.6, RFC 6585 §4 (429)",
  ),
  'extension-invalid': lint(
    'error',
    'x-dataapi-* extensions are well formed',
    'correct the extension as the message says (see the README on extensions)',
    "OpenAPI 3.1.0 §4.9 Specification Extensions (x- fields); the shape of each x-dataapi-* extension is this toolkit's (README, extensions)",
  ),
  'deprecation-sunset': lint(
    'error',
    "x-dataapi-sunset and x-dataapi-deprecated-since are days (YYYY-MM-DD) on a deprecated operation, and a live operation's sunset is still to come",
    'write the days as YYYY-MM-DD on a deprecated operation, and remove the operation once its sunset has passed',
    "OpenAPI 3.1.0 §4.8.10 Operation Object: deprecated; RFC 8594 (Sunset: the resource is expected to become unresponsive after that time); the day format of x-dataapi-sunset is this toolkit's",
  ),
  'swagger2-converted': lint(
    'warning',
    'a Swagger 2.0 description is read after its conversion to OpenAPI 3.0',
    'convert the description to OpenAPI 3 (swagger2openapi) and commit that instead',
    "OpenAPI 3.1.0 §4.8.1 OpenAPI Object: openapi (REQUIRED); a Swagger 2.0 description is read only after conversion, this toolkit's choice",
  ),
  'deprecation-successor': lint(
    'error',
    'x-dataapi-successor names another operation by its operationId',
    'name an existing operationId other than its own',
    "RFC 8288 Web Linking with the successor-version relation (RFC 5829); x-dataapi-successor is this toolkit's extension (OpenAPI 3.1.0 §4.9)",
  ),
  // The mock.
  'response-schema-not-compiled': {
    severity: 'warning',
    title: 'a response schema cannot be compiled: answers are not checked against it',
    action: 'simplify or fix the schema so Ajv (JSON Schema 2020-12) compiles it',
    sources: ['mock'],
    norm: 'JSON Schema 2020-12 (the dialect of OpenAPI 3.1.0 §4.8.24 Schema Object); where the schema is valid, a limit of Ajv and so of this toolkit',
  },
  // The server stubs and the mock.
  'operation-not-served': {
    severity: 'warning',
    title:
      'an operation cannot be served (its schemas do not compile or its path cannot be routed): it answers 501',
    action: 'fix the schema or path the message names',
    sources: ['server', 'mock'],
    norm: 'no norm: a limit of this toolkit, because its server cannot compile the schema (JSON Schema 2020-12) or route the path (OpenAPI 3.1.0 §3.2 Path Templating) the message names',
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
  'format-not-asserted': blamed(
    'the target accepted a value outside a string format the schema names (uuid, date-time, email, ...): the description does not say the format is asserted',
    "if such values are to be refused, have the target validate the format (or state the rule as a pattern, which is asserted); else nothing: the format is the description's annotation",
    'JSON Schema 2020-12 Validation §7.2.1 (format is an annotation by default; an implementation MAY assert it), as OpenAPI 3.1 §4.8.24 Schema Object takes it; Swagger 2.0 and OpenAPI 3.0 (JSON Schema Draft 4 and Wright-00 Validation §7: implementations MAY support format validation)',
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
    "JSON Schema 2020-12 Validation §6.4.2 minItems against the operation's page-size parameter (x-dataapi-paging, or a limit-like parameter)",
  ),
  'link-expression-unresolvable': blamed(
    'a link reads a value the response schema cannot hold (not followed)',
    'point the runtime expression at a property of the response schema',
    'OpenAPI 3.1.0 §4.8.20 Link Object: runtime expressions ($response.body#/... is a JSON Pointer, RFC 6901, into the response)',
  ),
  'link-value-mismatch': blamed(
    "a link's values do not fit the target's parameters (not followed)",
    "make the linked values fit the target's parameter schemas",
    "OpenAPI 3.1.0 §4.8.20 Link Object: parameters, against the target's §4.8.12 Parameter Object: schema",
  ),
  'fuzz-no-valid-value': blamed(
    'fuzzing found too few valid requests it could send',
    'check the request schemas: they admit almost no value',
    "no norm: a limit of this toolkit's sampler, which found too few values the request schemas (JSON Schema 2020-12) admit",
  ),
  observed: blamed(
    'the proxy saw an exchange the description does not account for',
    'compare the exchange with the description and declare what is missing',
    'OpenAPI 3.1.0 §4.8.8 Paths Object and §4.8.16 Responses Object (the description does not cover the exchange)',
  ),
} as const satisfies Record<string, NormedEntry>;
