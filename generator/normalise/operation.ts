/**
 * One operation of a path item (or webhook) read into the model: parameters, body, responses,
 * envelope, auth, rate limit and the service's `x-dataapi-*` facts. Ids are allocated later,
 * once preview variants are folded (see index.ts).
 */
import type {
  BusinessCodeGroup,
  HttpMethod,
  JsonSchema,
  Operation,
  Parameter,
  RateLimit,
  Response,
} from '../../model/types.ts';
import { isObject, setOwn, type Obj } from '../../model/object.ts';
import { joinPointer } from '../../model/pointer.ts';
import { allParameters } from '../../model/queries.ts';
import { readAuth } from './auth.ts';
import { detectEnvelope } from './envelope.ts';
import type { Findings } from './findings.ts';
import { readBody, readParameters, readResponses } from './parts.ts';
import { reportPathKey, type PathEntry } from './paths.ts';
import type { Problems } from './problems.ts';
import { rateWindows, readRateLimit } from './rate-limits.ts';
import type { SchemaConverter } from './schema.ts';

const SAFE_METHODS = new Set<HttpMethod>(['get', 'head', 'options', 'trace']);

/** What every operation of one document is read with. */
export interface ReadContext {
  doc: Obj;
  conv: SchemaConverter;
  problems: Problems;
  findings: Findings;
  groups: BusinessCodeGroup[];
  defaultRateLimit: RateLimit;
}

export interface Draft {
  op: Operation;
  raw: Obj;
  previewOf?: string;
  asyncRaw?: unknown;
}

function versionOf(path: string): { version?: string } {
  const marker = /\/(v\d+)(?=\/|$)/.exec(path)?.[1];
  return marker ? { version: marker } : {};
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];
}

export function readOperation(
  ctx: ReadContext,
  entry: PathEntry,
  method: HttpMethod,
  raw: Obj,
): Draft {
  const { doc, conv, problems, findings } = ctx;
  const pointer = joinPointer(entry.webhook ? 'webhooks' : 'paths', entry.key, method);
  // Findings are keyed by pointer until ids are allocated (see Findings.renameOperations).
  findings.operation = pointer;
  if (!entry.webhook) reportPathKey(entry, findings);
  const parameters = readParameters(doc, entry.item, raw, conv, {
    pointer,
    fixed: entry.fixed,
    findings,
  });
  const answers = readAnswers(ctx, raw, pointer);
  const names = allParameters(parameters).map((p) => p.name);
  const requireAnyOf = readRequireAnyOf(raw, pointer, names, problems);
  const businessCodes = businessCodesOf(ctx, raw, pointer);
  const body = readBody(doc, raw, conv, pointer, findings);
  if (body && (method === 'get' || method === 'head'))
    findings.add(
      'operation-body-on-get',
      `${pointer}/requestBody`,
      `a ${method.toUpperCase()} request has no body (fetch refuses to send one, servers need not read it): the suite does not send it and the mock does not read it`,
    );
  const op: Operation = {
    id: '',
    ...identityOf(entry, method, pointer, raw),
    parameters,
    requireAnyOf,
    querySchema: querySchema(parameters.query, requireAnyOf),
    ...(body ? { body } : {}),
    responses: answers.responses,
    ...(answers.success ? { success: answers.success } : {}),
    // Converted here, after the body: schemas are hoisted (and their $defs named) in this order.
    ...(answers.envelope
      ? { envelope: answers.envelope, payloadSchema: conv.convert(answers.payload, pointer) }
      : {}),
    auth: readAuth(doc, raw, pointer, problems, findings),
    ...businessCodes,
    ...rateLimitsOf(raw, pointer, ctx),
    streaming: answers.success?.kind === 'sse' || raw['x-dataapi-stream'] === 'sse',
    writes:
      typeof raw['x-dataapi-writes'] === 'boolean'
        ? raw['x-dataapi-writes']
        : !SAFE_METHODS.has(method),
    assumed: stringList(raw['x-dataapi-assumed']),
    notShown: stringList(raw['x-dataapi-not-shown']),
  };
  if (raw['x-dataapi-preview'] === true)
    op.preview = { path: `${entry.path}/demo`, id: '', explicit: false };
  const previewOf = raw['x-dataapi-preview-of'];
  return {
    op,
    raw,
    ...(typeof previewOf === 'string' ? { previewOf } : {}),
    asyncRaw: raw['x-dataapi-async'],
  };
}

/** Where the operation is and what the description says it is (in the model's key order). */
function identityOf(entry: PathEntry, method: HttpMethod, pointer: string, raw: Obj) {
  const tags = stringList(raw['tags']);
  return {
    ...(typeof raw['operationId'] === 'string' ? { operationId: raw['operationId'] } : {}),
    method,
    path: entry.path,
    pointer,
    pathKey: entry.key,
    ...(typeof raw['summary'] === 'string' ? { summary: raw['summary'] } : {}),
    ...(typeof raw['description'] === 'string' ? { description: raw['description'] } : {}),
    category: tags[0] ?? 'default',
    ...(isObject(raw['callbacks']) && Object.keys(raw['callbacks']).length > 0
      ? { callbacks: Object.keys(raw['callbacks']).sort() }
      : {}),
    deprecated: raw['deprecated'] === true,
    ...versionOf(entry.path),
  };
}

/** The responses, the success response, and the envelope it uses (its payload schema as written). */
function readAnswers(ctx: ReadContext, raw: Obj, pointer: string) {
  const { doc, conv, problems } = ctx;
  const read = readResponses(doc, raw, conv, pointer, ctx.findings);
  const responses = read.responses.map((r) =>
    withoutContentTypeHeader(ctx, withoutForbiddenContent(ctx, r, pointer), pointer),
  );
  const rawSchemas = read.raw;
  const success = responses.find((r) => /^2\d\d$/.test(r.status));
  const { envelope, payloadSchema } = detectEnvelope(
    doc,
    raw,
    pointer,
    success ? rawSchemas.get(success.status) : undefined,
    problems,
  );
  return { responses, success, envelope, payload: payloadSchema };
}

/**
 * RFC 9110 §6.4.1: a 1xx, 204, 205 or 304 answer has no content, whatever the description
 * declares (corpus journy.io: a 204 with a JSON schema). Read as no body, with a finding, so the
 * mock, the client's types and the checks agree with HTTP.
 */
function withoutForbiddenContent(ctx: ReadContext, r: Response, pointer: string): Response {
  if (r.mediaType === undefined || !/^(1\d\d|204|205|304)$/.test(r.status)) return r;
  ctx.findings.add(
    'response-content-forbidden',
    pointer + joinPointer('responses', r.status, 'content'),
    `a ${r.status} answer has no content in HTTP, but ${r.mediaType} is declared: read as no body`,
  );
  const { mediaType: _m, schema: _s, ...rest } = r;
  return { ...rest, kind: 'empty', examples: [] };
}

/**
 * OpenAPI (3.0 §4.7.17, 3.1 §4.8.17 Response Object): a response header named Content-Type SHALL
 * be ignored; the content map's keys say it. Judged as declared, an enum of bare media types
 * refused the parameters HTTP allows on it (`; charset=utf-8`, RFC 9110 §8.3.1): corpus openEHR.
 */
function withoutContentTypeHeader(ctx: ReadContext, r: Response, pointer: string): Response {
  const ignored = r.headers.filter((h) => h.name.toLowerCase() === 'content-type');
  if (ignored.length === 0) return r;
  for (const h of ignored)
    ctx.findings.add(
      'header-content-type',
      pointer + joinPointer('responses', r.status, 'headers', h.name),
      `the ${r.status} response declares a ${h.name} header, which OpenAPI ignores: its media types are the keys of its content`,
    );
  return { ...r, headers: r.headers.filter((h) => !ignored.includes(h)) };
}

/** The operation's business-code group, when it names one that is declared. */
function businessCodesOf(
  ctx: ReadContext,
  raw: Obj,
  pointer: string,
): Pick<Operation, 'businessCodes'> {
  const { groups, problems } = ctx;
  const name = raw['x-dataapi-business-codes'];
  if (name === undefined) return {};
  if (typeof name === 'string' && groups.some((g) => g.name === name))
    return { businessCodes: name };
  problems.add(
    'spec-extension',
    `${pointer}/x-dataapi-business-codes`,
    `unknown business code group ${JSON.stringify(name)} (declared: ${groups.map((g) => g.name).join(', ') || 'none'})`,
  );
  return {};
}

function readRequireAnyOf(
  raw: Obj,
  pointer: string,
  names: string[],
  problems: Problems,
): string[][] {
  const value = raw['x-dataapi-require-any-of'];
  if (value === undefined) return [];
  const ok =
    Array.isArray(value) &&
    value.every(
      (g) =>
        Array.isArray(g) &&
        g.length > 0 &&
        g.every((n) => typeof n === 'string' && names.includes(n)),
    );
  if (!ok) {
    problems.add(
      'spec-extension',
      `${pointer}/x-dataapi-require-any-of`,
      'must be a list of groups of declared parameter names, e.g. [[location, city]]',
    );
    return [];
  }
  return value as string[][];
}

function querySchema(params: Parameter[], requireAnyOf: string[][]): JsonSchema {
  const properties: Obj = {};
  for (const p of params) setOwn(properties, p.name, p.schema);
  const schema: Obj = { type: 'object', properties };
  const required = params.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) schema['required'] = required;
  const anyOf = requireAnyOf.map((group) => ({
    anyOf: group.map((name) => ({ required: [name] })),
  }));
  if (anyOf.length === 1) Object.assign(schema, anyOf[0]);
  else if (anyOf.length > 1) schema['allOf'] = anyOf;
  return schema;
}

/** The operation's declared limit and the windows its requests count against. */
function rateLimitsOf(
  raw: Obj,
  pointer: string,
  ctx: ReadContext,
): Pick<Operation, 'rateLimit' | 'rateLimits'> {
  const at = `${pointer}/x-dataapi-rate-limit`;
  const rateLimit =
    readRateLimit(raw['x-dataapi-rate-limit'], at, ctx.problems, 'operation') ??
    ctx.defaultRateLimit;
  return { rateLimit, rateLimits: rateWindows(rateLimit, ctx.defaultRateLimit) };
}
