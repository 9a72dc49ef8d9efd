/**
 * The intermediate model (IR) of a described HTTP service: the only input the templates see.
 *
 * `normalise()` builds it from any OpenAPI 3.0.x or 3.1.x document. Domain facts of the Data and AI
 * API Service (envelopes, preview variants, key transports, business codes, rate limits) are read
 * from `x-dataapi-*` extensions where present and inferred where they can be; a third-party
 * description simply yields operations without an envelope or business codes (plain JSON).
 *
 * Every JSON Schema in the model is JSON Schema 2020-12 (3.0's `nullable`, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` and `example` are converted), and every `$ref` in it is an
 * absolute reference into `ServiceModel.schemaRoot` (`urn:dataapi:spec#/...`), so one Ajv instance
 * that has added `schemaRoot` can compile any schema of the model on its own.
 */
/** A JSON Schema 2020-12 (object or boolean form). */
export type JsonSchema = { [key: string]: unknown } | boolean;

export const SCHEMA_ROOT_ID = 'urn:dataapi:spec';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Canonical meaning of a business status code, shared by every code group. */
export type Outcome =
  | 'ok'
  | 'invalid_parameters'
  | 'rate_limited'
  | 'in_arrears'
  | 'wrong_key'
  | 'key_expired'
  | 'quota_exceeded'
  | 'service_error';

export interface BusinessCode {
  code: number;
  meaning: string;
  outcome: Outcome;
  remark?: string;
}

/** One business-code group (A, B, C or the base group where only 100 = ok is known): docs/service.md §5. */
export interface BusinessCodeGroup {
  name: string;
  description: string;
  successCode: number;
  codes: BusinessCode[];
  /**
   * The business code a server answers an HTTP error with, derived from the outcomes
   * (400 -> invalid_parameters, 401 -> wrong_key, 403 -> in_arrears/key_expired/quota_exceeded,
   * 429 -> rate_limited, 500/502 -> service_error). Statuses without a fitting code are absent.
   */
  byHttpStatus: Record<string, number>;
}

export type EnvelopeSpelling = 'capitalised' | 'lowerCamel';

/** Names of the envelope's keys for one spelling. */
export interface Envelope {
  spelling: EnvelopeSpelling;
  statusKey: string; // DataStatus | dataStatus
  payloadKey: string; // Data | data
  codeField: string; // StatusCode | statusCode
  descriptionField: string; // StatusDescription | statusDescription
  dateTimeField: string; // ResponseDateTime | responseDateTime
  totalCountField: string; // DataTotalCount | dataTotalCount
  /** Every property the status object declares (with the spelling's case). */
  statusFields: string[];
  /**
   * Top-level keys of the other spelling that a body may carry besides its own
   * (lower camel case samples also carry a capitalised DataStatus: docs/service.md §2).
   */
  toleratedKeys: string[];
  /** Where the spelling came from: the `x-dataapi-envelope` extension or the 200 schema. */
  source: 'extension' | 'inferred';
}

/** How an operation takes the key. */
export type KeyTransport =
  | { in: 'query'; name: string; scheme: string }
  | { in: 'header'; name: string; scheme: string }
  | { in: 'cookie'; name: string; scheme: string }
  | { in: 'bearer'; scheme: string }
  /** HTTP Basic: `Authorization: Basic base64(user:password)`; the credential is `user:password`. */
  | { in: 'basic'; scheme: string }
  | { in: 'body'; name: string };

export interface Auth {
  /** Any one of these is enough. Empty when the operation takes no key (preview variants). */
  transports: KeyTransport[];
  /**
   * The security requirements as OpenAPI states them: any one entry is enough (alternatives), and
   * every transport of that entry must carry a credential (several schemes in one requirement).
   * `transports` is the union of these, in order.
   */
  requirements: KeyTransport[][];
  required: boolean;
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One parameter; `in` repeats the location of the list that holds it (see `Parameters`). */
export interface Parameter<L extends ParameterLocation = ParameterLocation> {
  name: string;
  in: L;
  required: boolean;
  schema: JsonSchema;
  /** Serialisation (OpenAPI defaults applied: form/true for query and cookie, simple/false else). */
  style: string;
  explode: boolean;
  deprecated: boolean;
  description?: string;
  example?: unknown;
  /**
   * Set when the parameter is described by `content` instead of `schema`: its value is sent
   * serialised as this media type (e.g. `application/json`: JSON text in the query string).
   */
  mediaType?: string;
  /**
   * A value the path key itself fixes (`/responses?beta=true` -> `beta` = `true`): always sent,
   * and the only value accepted. Its schema is `{ const: value }`.
   */
  fixed?: string;
  /** A safe identifier for generated code (the name itself when it is one), unique per operation. */
  identifier: string;
}

/**
 * An operation's parameters grouped by location, as servers read and clients send them. Each
 * list is ordered required first, then by name; every location is present (empty when none).
 * `allParameters` (queries.ts) gives them as one list where a question concerns them all.
 */
export interface Parameters {
  path: Parameter<'path'>[];
  query: Parameter<'query'>[];
  header: Parameter<'header'>[];
  cookie: Parameter<'cookie'>[];
}

export interface NamedExample {
  name: string;
  summary?: string;
  value: unknown;
}

export type BodyKind = 'json' | 'multipart' | 'form' | 'text' | 'binary';

export interface RequestBody {
  mediaType: string;
  kind: BodyKind;
  required: boolean;
  schema: JsonSchema;
  /** Multipart properties that carry files (format binary or contentMediaType). */
  fileFields: string[];
  examples: NamedExample[];
  description?: string;
  /**
   * A form body's `encoding`: how each field is written (style form, spaceDelimited,
   * pipeDelimited or deepObject; explode). Absent when the description gives none.
   */
  encoding?: Record<string, { style?: FormStyle; explode?: boolean }>;
}

export type FormStyle = 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

export type ResponseKind = 'json' | 'sse' | 'text' | 'binary' | 'empty';

export interface ResponseHeader {
  name: string;
  required: boolean;
  schema: JsonSchema;
  description?: string;
  /** The header's own `example` (or its first `examples` value): what a mock sends first. */
  example?: unknown;
}

export interface Response {
  /** '200', '404', '4XX' or 'default'. */
  status: string;
  description: string;
  mediaType?: string;
  kind: ResponseKind;
  schema?: JsonSchema;
  headers: ResponseHeader[];
  examples: NamedExample[];
  /**
   * OpenAPI `links` of this response: requests that can follow it, with values taken from this
   * request and response (runtime expressions). Absent when the response has none.
   */
  links?: ResponseLink[];
}

/** A value of a link: a runtime expression (`$response.body#/id`), a string embedding them, or a constant. */
export interface LinkParameter {
  in: ParameterLocation;
  name: string;
  value: unknown;
}

/**
 * One OpenAPI link (or one the model derives: an asynchronous submit links to its status
 * operation, `x-dataapi-async`): the operation a response leads to and how to fill its request.
 */
export interface ResponseLink {
  /** The link's name in the description (`x-dataapi-async` for a derived one). */
  name: string;
  /** The model id of the operation the link leads to. */
  target: string;
  parameters: LinkParameter[];
  /** The target's body: a runtime expression (`$request.body`) or a constant. */
  requestBody?: unknown;
  description?: string;
  /** JSON pointer of the link in the bundled document (the submit operation for a derived one). */
  pointer: string;
}

export interface RateLimit {
  limit: number;
  per: 'second' | 'minute' | 'hour';
  windowMs: number;
  /** The operation's own `x-dataapi-rate-limit`, or the service default (the root's). */
  source: 'operation' | 'default';
}

/** The length of each rate-limit window. */
export const WINDOW_MS: Readonly<Record<RateLimit['per'], number>> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
};

/**
 * Where an operation takes its page size: decided once by the normaliser (an integer query
 * parameter, else a top-level integer property of a JSON body, named `pageSize`, `page_size`,
 * `per_page`, `limit`, `size` or `page_limit`); the mock pages by it and the contract probes ask
 * for its smallest value.
 */
export interface Paging {
  in: 'query' | 'body';
  name: string;
  /** The smallest page size the schema allows (1 when it gives none). */
  minimum: number;
  maximum?: number;
}

export interface PreviewVariant {
  /** Path of the variant: the operation's path plus `/demo`. */
  path: string;
  /** Identifier of the variant in generated code: the operation id plus `Preview`. */
  id: string;
  /** Whether the spec lists the `/demo` path itself (true) or only marks the operation (false). */
  explicit: boolean;
  /** The explicit variant's own operationId, when it has one. */
  operationId?: string;
}

export interface AsyncLink {
  role: 'submit' | 'status';
  /** The id of the paired operation (the status operation of a submit, and the reverse). */
  partner: string;
  /** Response fields that carry the task id, its state and where to poll (docs/service.md §8). */
  operationIdField: string;
  statusField: string;
  pollingUrlField: string;
}

export interface Operation {
  /** Unique, safe identifier (from operationId; synthesised from method and path when absent). */
  id: string;
  /** The operationId as written in the spec, if any. */
  operationId?: string;
  method: HttpMethod;
  path: string;
  /** JSON pointer of the operation in the bundled document, e.g. `/paths/~1a/get`. */
  pointer: string;
  /**
   * The key of the operation's path item as written (`/files/{file_id}#add_shared_link`,
   * `/responses?beta=true`; a webhook's name). `path` is the routable part of it (no fragment,
   * no query: those become a distinct id and `fixed` query parameters); types are indexed by
   * `pathKey`.
   */
  pathKey: string;
  summary?: string;
  description?: string;
  /** The operation's first tag, or 'default'. */
  category: string;
  /**
   * Names of the operation's OpenAPI `callbacks` (requests the API makes back to the caller):
   * typed nowhere, never called by the suite, and counted as not exercised. Absent when none.
   */
  callbacks?: string[];
  deprecated: boolean;
  /**
   * When and for what a deprecated operation goes away (`x-dataapi-deprecated-since`,
   * `x-dataapi-sunset`, `x-dataapi-successor`); present exactly when `deprecated` is.
   */
  deprecation?: Deprecation;
  /** Version marker found in the path (`v1`, `v2`), if any. */
  version?: string;
  parameters: Parameters;
  /**
   * Groups of query parameters of which at least one must be sent (`x-dataapi-require-any-of`;
   * the service: air quality needs location or city). Already folded into `querySchema`.
   */
  requireAnyOf: string[][];
  /** The JSON Schema (2020-12) of the query parameters as one object, for validators. */
  querySchema: JsonSchema;
  body?: RequestBody;
  responses: Response[];
  /** The operation's success response (the lowest declared 2xx), if it declares one. */
  success?: Response;
  /** The envelope spelling; absent for plain JSON operations. */
  envelope?: Envelope;
  /** The JSON Schema of the envelope's payload (Data/data), when there is an envelope. */
  payloadSchema?: JsonSchema;
  auth: Auth;
  preview?: PreviewVariant;
  /** Name of the operation's business code group (see ServiceModel.businessCodeGroups). */
  businessCodes?: string;
  /**
   * The limit the description declares for this operation: its own, else the service default.
   * What `dataapi diff` compares and the packed client's README shows.
   */
  rateLimit: RateLimit;
  /**
   * Every window a request of this operation counts against, shortest first: the declared limit
   * and, when that is over another window than the service default, the default too (air
   * quality: 5 per second and 100 per minute; docs/service.md §7). Decided once by the
   * normaliser: servers enforce these windows, the client and the contract runner pace by them.
   */
  rateLimits: RateLimit[];
  /** The page-size parameter or body field, when the operation pages its results. */
  paging?: Paging;
  async?: AsyncLink;
  /** The success response is a server-sent event stream. */
  streaming: boolean;
  /** The operation changes state (uploads, submits): contract runs send it only when allowed. */
  writes: boolean;
  /** Facts the spec had to assume because its source does not give them (`x-dataapi-assumed`). */
  assumed: string[];
  /** Details its source does not show (`x-dataapi-not-shown`). */
  notShown: string[];
}

/** The life cycle of a deprecated operation: dates are calendar days (`YYYY-MM-DD`, UTC). */
export interface Deprecation {
  /** The day it was deprecated, when the description gives it (the `Deprecation` header's date). */
  since?: string;
  /** The day it may be removed (RFC 8594 `Sunset`): removing it earlier is a breaking change. */
  sunset?: string;
  /** The model id of the operation that replaces it (`Link: <path>; rel="successor-version"`). */
  successor?: string;
}

export interface Category {
  name: string;
  description?: string;
  /** Safe identifier / file stem for the category. */
  identifier: string;
  operations: string[];
}

/**
 * What the client's runtime reads of a model: a whole ServiceModel, or the packed client's slice
 * of one. Declared apart from ServiceModel (model/service-model.ts), whose findings are typed by
 * the diagnostics catalogue: the packed client ships this module's declarations, not the catalogue.
 */
export interface ClientModel {
  operations: Operation[];
  businessCodeGroups: BusinessCodeGroup[];
  schemaRoot: { [key: string]: unknown };
}
