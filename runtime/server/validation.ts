/**
 * Request validation with Ajv (JSON Schema 2020-12) in place of Fastify's validator compiler:
 * query, path and header values are coerced to their schema types (they arrive as text); JSON
 * bodies are not. Unknown query parameters are allowed. Every schema is compiled once, on its
 * route's first request.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';
import {
  deref,
  propertiesOf,
  unescapeToken,
  type JsonSchema,
  type Operation,
  type ServiceModel,
} from 'dataapi/model';
import {
  coercingValidatorFor,
  directionalErrors,
  isXmlMedia,
  type ErrorObject,
  type SchemaValidator,
  type ValidateFunction,
  validatorFor,
} from 'dataapi/runtime/shared';
import { HttpError } from './errors.ts';
import { carriesJson } from './schema-types.ts';
import { nullAsOption } from './null-option.ts';
import { xmlFault, xmlValue } from 'dataapi/runtime/xml';

export interface Validators {
  /** Coercing (query, path, headers, multipart and form fields). */
  params: SchemaValidator;
  /** Strict (JSON bodies). */
  body: SchemaValidator;
}

const cache = new WeakMap<ServiceModel, Validators>();

export function validatorsFor(model: ServiceModel): Validators {
  let v = cache.get(model);
  if (!v) {
    // Neither fills in defaults: validation sees the request as sent (fillDefaults, after).
    // Each Ajv is made when first used: adding a large description's schemas to one costs
    // hundreds of milliseconds, which a server that compiles on first use need not pay at start.
    let params: SchemaValidator | undefined;
    v = {
      get params() {
        return (params ??= coercingValidatorFor(model));
      },
      // The strict one is the model's own (the same options): a mock's example checks and
      // the contract checks in its process compile each schema once, not once more here.
      get body() {
        return validatorFor(model);
      },
    };
    cache.set(model, v);
  }
  return v;
}

type Defaulted = { name: string; schema: JsonSchema; value: unknown }[];

/** The defaults of a schema, and the outcomes of filling them (see `independentOf`). */
interface DefaultsPlan {
  list: Defaulted;
  /** Filling the same missing fields always ends the same way: outcomes can be reused. */
  independent: boolean;
  /** Missing fields (a bit per `list` entry) -> the fields filled and their (coerced) values. */
  outcomes: Map<number, { name: string; value: unknown }[]>;
}
const defaultsCache = new WeakMap<object, DefaultsPlan>();

/** Most missing-field combinations of one schema remembered (requests tend to repeat a few). */
const MAX_OUTCOMES = 64;

/** Keywords that judge each property on its own, or say nothing about the value. */
const PER_PROPERTY = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'title',
  'description',
  '$comment',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
  'xml',
  'externalDocs',
]);

/**
 * Whether a schema's verdict on a value it accepted, once defaults are filled in, depends only on
 * which defaults were filled: every keyword judges each property on its own (a filled property
 * cannot make `required` fail), `anyOf`/`allOf` of bare `required` lists included (the query
 * schema's "one of these must be sent"). Then the first outcome of a missing-field combination
 * is every later one's, and the request's path skips the clone and the second validation.
 */
function independentOf(schema: JsonSchema): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  for (const [key, sub] of Object.entries(schema)) {
    if (PER_PROPERTY.has(key) || key.startsWith('x-')) continue;
    if ((key === 'anyOf' || key === 'allOf') && Array.isArray(sub)) {
      const onlyRequired = sub.every(
        (s: unknown) =>
          typeof s === 'object' &&
          s !== null &&
          Object.keys(s).every((k) => k === 'required' || k === 'description'),
      );
      if (onlyRequired) continue;
    }
    return false;
  }
  return true;
}

/** The top-level properties of a schema that declare a `default` (their own, or their target's). */
function defaultsOf(model: ServiceModel, schema: JsonSchema): DefaultsPlan {
  if (typeof schema !== 'object') return { list: [], independent: false, outcomes: new Map() };
  let plan = defaultsCache.get(schema);
  if (!plan) {
    const list: Defaulted = [];
    for (const [name, sub] of propertiesOf(model, schema)) {
      const own = typeof sub === 'object' && 'default' in sub ? sub : deref(model, sub);
      if (typeof own === 'object' && own !== null && 'default' in own)
        list.push({ name, schema: sub, value: own.default });
    }
    plan = { list, independent: list.length <= 30 && independentOf(schema), outcomes: new Map() };
    defaultsCache.set(schema, plan);
  }
  return plan;
}

/** A copy the caller may change (defaults are shared by every request). */
function fresh(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

function setField(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * Fills in the `default`s of a value's missing top-level fields (the parameters of a place, a
 * body's fields), in place, after it has passed validation: a required field with a default must
 * still be sent, and a default the schema refuses is left out rather than turning a valid request
 * into a refused one (the description warning names it). The filled value is checked with the
 * validator that passed it (`validate`, compiled already: no compile on the request's path).
 */
export function fillDefaults(
  model: ServiceModel,
  schema: JsonSchema,
  value: unknown,
  validate: ValidateFunction,
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const target = value as Record<string, unknown>;
  const plan = defaultsOf(model, schema);
  const { list } = plan;
  if (list.length === 0) return;
  let mask = 0;
  const missing: Defaulted = [];
  for (let i = 0; i < list.length; i++) {
    const d = list[i]!;
    if (!Object.hasOwn(target, d.name) || target[d.name] === undefined) {
      missing.push(d);
      mask |= 1 << i;
    }
  }
  if (missing.length === 0) return;
  const known = plan.independent ? plan.outcomes.get(mask) : undefined;
  if (known) {
    for (const f of known) setField(target, f.name, fresh(f.value));
    return;
  }
  const filled = fillChecked(model, target, missing, validate);
  if (plan.independent && plan.outcomes.size < MAX_OUTCOMES)
    plan.outcomes.set(
      mask,
      filled.map((name) => ({ name, value: fresh(target[name]) })),
    );
}

/** Fills the missing defaults the schema accepts; returns the names filled. */
function fillChecked(
  model: ServiceModel,
  target: Record<string, unknown>,
  missing: Defaulted,
  validate: ValidateFunction,
): string[] {
  const copy: Record<string, unknown> = { ...target };
  for (const d of missing) copy[d.name] = structuredClone(d.value);
  for (let attempt = 0; attempt < 2; attempt++) {
    const errors = validate(copy) ? [] : directionalErrors(model, validate.errors, 'request');
    if (errors.length === 0) break;
    // Take out the defaults the errors are about; give up if they are about anything else.
    const bad = new Set(errors.map((e) => unescapeToken(e.instancePath.split('/')[1] ?? '')));
    if (attempt === 1 || ![...bad].every((k) => missing.some((d) => d.name === k))) return [];
    for (const k of bad) delete copy[k];
  }
  const filled: string[] = [];
  for (const d of missing) {
    if (!Object.hasOwn(copy, d.name)) continue;
    setField(target, d.name, copy[d.name]);
    filled.push(d.name);
  }
  return filled;
}

/** Route schemas of one operation, built from the IR. */
export interface RouteSchemas {
  /** Absent when it would accept every query (no parameters): nothing to compile or run. */
  querystring?: JsonSchema;
  params?: JsonSchema;
  headers?: JsonSchema;
  /** JSON, form or text body (multipart bodies are validated after their parts are read). */
  body?: JsonSchema;
}

/** Marks a schema whose absence (no body at all) is fine. */
export const OPTIONAL_BODY = Symbol('dataapi.optionalBody');
/** Marks a form body: its fields arrive as text and are coerced like query parameters. */
export const TEXT_FIELDS = Symbol('dataapi.textFields');
/**
 * Marks an XML body: it arrives (and reaches the handler) as its text; it must be well-formed, and
 * the value it stands for under the schema's `xml` hints is what the schema judges.
 */
export const XML_BODY = Symbol('dataapi.xmlBody');
/**
 * Marks a route's path schema with its aliases (routes.ts toRoutePath: `p0` for `{alert-email-group}`):
 * its errors name the parameter as the description does, since users read them in 400 answers.
 */
export const PATH_ALIASES = Symbol('dataapi.pathAliases');

/**
 * A parameter arrives as text and is coerced: "7" then fits both `integer` and `string`, so a
 * `oneOf` of them would refuse it. For parameters, any matching alternative is enough.
 */
export function relaxOneOf(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || !Array.isArray(schema.oneOf) || 'anyOf' in schema)
    return schema;
  const { oneOf, ...rest } = schema;
  return { ...rest, anyOf: oneOf };
}

export function routeSchemas(
  model: ServiceModel,
  op: Operation,
  paramAliases: Map<string, string>,
): RouteSchemas {
  // A text's schema: any fitting alternative, null as an option (null-option.ts).
  const forText = (s: JsonSchema) => nullAsOption(model, relaxOneOf(s));
  let query = withoutJsonParams(model, op, 'query', op.querySchema);
  if (typeof query === 'object') {
    const properties = query.properties as Record<string, JsonSchema> | undefined;
    const relaxed =
      properties && Object.values(properties).some((p) => forText(p) !== p)
        ? Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, forText(p)]))
        : undefined;
    if (relaxed || query.additionalProperties === false) {
      query = { ...query, ...(relaxed ? { properties: relaxed } : {}) };
      // Unknown query parameters (the key, scenario switches) are allowed by design.
      delete query.additionalProperties;
    }
  }
  // `{ type: 'object', properties: {} }` (an operation without query parameters) accepts every
  // parsed query and fills in nothing: not compiled (GitHub's first answer made the coercing Ajv
  // for it, 0.15 s) and not run, with the same outcome.
  const out: RouteSchemas = acceptsAnyQuery(query) ? {} : { querystring: query };
  if (paramAliases.size > 0) {
    const byName = new Map(op.parameters.path.map((p) => [p.name, p]));
    const properties: Record<string, JsonSchema> = {};
    for (const [alias, name] of paramAliases) {
      properties[alias] = relaxOneOf(byName.get(name)?.schema ?? { type: 'string' });
    }
    out.params = {
      type: 'object',
      properties,
      required: [...paramAliases.keys()],
      [PATH_ALIASES]: paramAliases,
    } as JsonSchema;
  }
  const headers = op.parameters.header;
  if (headers.length > 0) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const h of headers) {
      const name = h.name.toLowerCase();
      properties[name] = carriesJson(model, h) ? true : forText(h.schema);
      if (h.required) required.push(name);
    }
    out.headers = { type: 'object', properties, required };
  }
  // GET and HEAD bodies are never read (Fastify refuses a body schema on them).
  const readsBody = op.method !== 'get' && op.method !== 'head';
  if (op.body && readsBody && op.body.kind !== 'multipart' && op.body.kind !== 'binary') {
    const schema = op.body.schema;
    const marks = {
      ...(op.body.required ? {} : { [OPTIONAL_BODY]: true }),
      ...(op.body.kind === 'form' ? { [TEXT_FIELDS]: true } : {}),
      ...(op.body.kind === 'text' && isXmlMedia(op.body.mediaType) ? { [XML_BODY]: true } : {}),
    };
    out.body =
      typeof schema === 'object' && Object.getOwnPropertySymbols(marks).length > 0
        ? ({ ...schema, ...marks } as JsonSchema)
        : schema;
  }
  return out;
}

function acceptsAnyQuery(schema: JsonSchema): boolean {
  if (typeof schema !== 'object' || schema === null) return schema === true;
  const keys = Object.keys(schema);
  const properties = schema.properties;
  return (
    keys.every((k) => k === 'type' || k === 'properties') &&
    (schema.type === undefined || schema.type === 'object') &&
    (properties === undefined ||
      (typeof properties === 'object' &&
        properties !== null &&
        Object.keys(properties).length === 0))
  );
}

/** The query schema with JSON parameters taking anything here (param-styles.ts validates them). */
function withoutJsonParams(
  model: ServiceModel,
  op: Operation,
  where: 'query',
  schema: JsonSchema,
): JsonSchema {
  const json = op.parameters[where].filter((p) => carriesJson(model, p));
  if (json.length === 0 || typeof schema !== 'object') return schema;
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const p of json) properties[p.name] = true;
  return { ...schema, properties };
}

type Check = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * Fastify's validator compiler, backed by the model's Ajv instances. Each schema is compiled on
 * its route's first request, not when the route is registered: a large description's server or
 * mock (GitHub's 1,223 operations) starts without compiling every operation up front.
 */
export function validatorCompiler(model: ServiceModel): FastifySchemaCompiler<JsonSchema> {
  const v = validatorsFor(model);
  return ({ schema, httpPart }) => {
    const optional = typeof schema === 'object' && OPTIONAL_BODY in schema;
    const textFields = typeof schema === 'object' && TEXT_FIELDS in schema;
    const xml = httpPart === 'body' && typeof schema === 'object' && XML_BODY in schema;
    const aliases =
      typeof schema === 'object'
        ? ((schema as Record<symbol, unknown>)[PATH_ALIASES] as Map<string, string> | undefined)
        : undefined;
    const ajv = () => (httpPart === 'body' && !textFields ? v.body : v.params);
    let fn: ValidateFunction | undefined;
    const check: Check = (data) => {
      // Fastify hands a missing body over as null; an optional body may be absent (a required
      // one is refused before validation, see param-styles.ts: its schema may admit null).
      if (optional && (data === null || data === undefined)) return true;
      if (xml) return checkXml(data);
      fn ??= compileOrRefuse(ajv(), schema, httpPart, textFields);
      // A readOnly property in `required` binds responses only: a request may leave it out.
      const errors = fn(data)
        ? []
        : withoutNullOption(directionalErrors(model, fn.errors, 'request').filter(ownWords));
      check.errors = errors.length === 0 ? null : aliases ? errors.map(named(aliases)) : errors;
      if (errors.length === 0) fillDefaults(model, schema, data, fn);
      return errors.length === 0;
    };
    // The text must be well-formed; where the hints map it back with certainty, the schema judges
    // the value (an unsure mapping, a oneOf say, is not refused on a guess). The handler gets the text.
    const checkXml = (data: unknown): boolean => {
      const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString() : '';
      const fault = xmlFault(text);
      const read = fault === undefined ? xmlValue(model, schema, text) : undefined;
      const problem = fault ?? (read && 'rootMismatch' in read ? read.rootMismatch : undefined);
      if (problem !== undefined) {
        check.errors = [
          { instancePath: '', schemaPath: '#/xml', keyword: 'xml', params: {}, message: problem },
        ];
        return false;
      }
      if (read === undefined || !('value' in read)) return true;
      fn ??= compileOrRefuse(v.params, schema, httpPart);
      const errors = fn(read.value)
        ? []
        : withoutNullOption(directionalErrors(model, fn.errors, 'request'));
      check.errors = errors.length === 0 ? null : errors;
      return errors.length === 0;
    };
    return check as FastifyValidationResult;
  };
}

/**
 * Not the `if` of an option tried in turn (validate-views.ts inTurn, `then: true`): its "must
 * match else schema" says nothing the option's own errors do not, and 400s read as before.
 */
const ownWords = (e: ErrorObject): boolean =>
  !(e.keyword === 'if' && (e.parentSchema as { then?: unknown } | undefined)?.then === true);

/**
 * A value refused by every option of an `anyOf` one of whose options is null (a 3.0 `nullable`,
 * read so): "must be null" and "must match a schema in anyOf" say nothing a client can act on,
 * since null is only ever the empty text. The other options' errors are what the 400 says; with
 * two or more of them left, the anyOf's own line still says that one of them was wanted. With one
 * left, the `if` of an option tried in turn goes too: its branch's own errors are listed.
 */
export function withoutNullOption(errors: ErrorObject[]): ErrorObject[] {
  const drop = new Set<ErrorObject>();
  for (const any of errors) {
    if (any.keyword !== 'anyOf') continue;
    const under = `${any.schemaPath}/`;
    const byOption = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      if (e === any || !e.schemaPath.startsWith(under)) continue;
      const option = e.schemaPath.slice(under.length).split('/')[0]!;
      byOption.set(option, [...(byOption.get(option) ?? []), e]);
    }
    // The value is not null: the rest of a null option's errors are moot too.
    const isNull = (list: ErrorObject[]) =>
      list.some(
        (e) =>
          e.keyword === 'type' &&
          e.params['type'] === 'null' &&
          e.instancePath === any.instancePath,
      );
    const options = [...byOption.values()];
    const others = options.filter((list) => !isNull(list));
    if (others.length === options.length || others.length === 0) continue;
    for (const list of options) if (isNull(list)) for (const e of list) drop.add(e);
    if (others.length > 1) continue;
    drop.add(any);
    for (const e of others[0]!) if (e.keyword === 'if') drop.add(e);
  }
  return drop.size === 0 ? errors : errors.filter((e) => !drop.has(e));
}

/** An error of a path schema, its route alias replaced by the parameter's name (a pointer token). */
const named =
  (aliases: Map<string, string>) =>
  (e: ErrorObject): ErrorObject => {
    const [, token, ...rest] = e.instancePath.split('/');
    const name = token === undefined ? undefined : aliases.get(token);
    const missing = e.params['missingProperty'];
    const lost = typeof missing === 'string' ? aliases.get(missing) : undefined;
    if (name === undefined && lost === undefined) return e;
    const escaped = (name ?? '').replace(/~/g, '~0').replace(/\//g, '~1');
    return {
      ...e,
      ...(name === undefined ? {} : { instancePath: ['', escaped, ...rest].join('/') }),
      ...(lost === undefined ? {} : { params: { ...e.params, missingProperty: lost } }),
    };
  };

function compileOrRefuse(
  ajv: SchemaValidator,
  schema: JsonSchema,
  part: string | undefined,
  text = false,
): ValidateFunction {
  try {
    // A body as a request reads it (readOnly properties in `required` waived, in a oneOf too);
    // a parameter's `oneOf` as an `anyOf`, behind a `$ref` too (a text fits several options).
    // A form body's fields are text as parameters are: both readings.
    return ajv.compileFor(
      schema,
      part !== 'body' ? 'parameter' : text ? 'text-request' : 'request',
    );
  } catch (err) {
    throw new HttpError(
      501,
      `the ${part ?? 'request'} schema of this operation cannot be compiled: ${(err as Error).message}`,
      { outcome: 'service_error' },
    );
  }
}
