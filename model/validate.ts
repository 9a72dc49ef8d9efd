/**
 * Validating values against the model's JSON Schemas: one Ajv (JSON Schema 2020-12 + formats)
 * per model with `schemaRoot` added once and compiled validators cached, and Ajv's errors as
 * short lines. Servers, the mock, the client, the contract tests and the linter all use it.
 */
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { unescapeToken } from './pointer.ts';
import { excerpt } from './text.ts';
import { safeRegExp } from './safe-regexp.ts';
import { flagged, needsView, schemaView, type SchemaView } from './validate-views.ts';
import type { JsonSchema } from './types.ts';
import type { ServiceModel } from './service-model.ts';

export type { ErrorObject, ValidateFunction };

const validators = new WeakMap<ServiceModel, SchemaValidator>();

/**
 * Schema roots this process has already checked against the JSON Schema meta-schema: a server,
 * the mock and each contract worker make several Ajv instances over one model, and checking a
 * large root (GitHub's: 9 MB) cost about a second in each. An invalid root is never recorded, so
 * every instance still refuses it.
 */
const checkedRoots = new WeakSet<object>();

export interface SchemaValidator {
  ajv: Ajv2020;
  /** Compiles once per schema object (cached by identity). */
  compile(schema: JsonSchema): ValidateFunction;
  /**
   * Compiles the schema as a request, a response or a parameter reads it (validate-views.ts): a
   * readOnly property in `required` binds responses only, a writeOnly one requests only, in a
   * `oneOf` branch too; a parameter's `oneOf` is an `anyOf`, behind a `$ref` too.
   */
  compileFor(schema: JsonSchema, view: SchemaView): ValidateFunction;
}

export interface ValidatorOptions {
  /** Coerce query-string values to the schema's types (servers). */
  coerceTypes?: boolean | 'array';
  /** Fill in `default`s (servers). */
  useDefaults?: boolean;
}

/** An Ajv for one model: OpenAPI formats known, schemaRoot added once. */
export function createSchemaValidator(
  model: ServiceModel,
  options: ValidatorOptions = {},
): SchemaValidator {
  // Schemas are checked against the meta-schema once per process, by the kept validator
  // (metaChecked), not by each Ajv: every Ajv compiled the 2020-12 meta-schema for itself (about 0.1 s of CPU each, and a
  // mock, a server and a contract worker make two or three), and a coercing one coerced the
  // schema it checked, in place, in the model every other Ajv reads.
  const ajv = newAjv({
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
    validateSchema: false,
  });
  const root = model.schemaRoot as object;
  if (!checkedRoots.has(root)) metaChecked(root);
  checkedRoots.add(root);
  ajv.addSchema(root, undefined, undefined, false);
  const cache = new WeakMap<object, ValidateFunction>();
  // Equal schemas are different objects (each operation's `{ $ref }` to a shared component, once
  // the model is read from JSON), and Ajv compiles the target of a schema's top-level `$ref` anew
  // for each new root: keyed by their text, Box's 982 response schemas compiled as 134, in 5 s of
  // CPU instead of 13 (in the mock and in each contract worker).
  const byText = new Map<string, ValidateFunction>();
  const compile = (schema: JsonSchema): ValidateFunction => {
    const key = typeof schema === 'object' && schema !== null ? schema : undefined;
    const known = key && cache.get(key);
    if (known) return known;
    const text = textOf(schema);
    let compiled = text === undefined ? undefined : byText.get(text);
    if (!compiled) {
      metaChecked(schema);
      compiled = ajv.compile(schema);
      if (text !== undefined) byText.set(text, compiled);
    }
    if (key) cache.set(key, compiled);
    return compiled;
  };
  const viewsAdded = new Set<SchemaView>();
  return {
    ajv,
    compile,
    compileFor(schema, kind) {
      const view = needsView(model, schema, kind) ? schemaView(model, kind) : undefined;
      if (!view) return compile(schema);
      if (!viewsAdded.has(kind)) ajv.addSchema(view.root, undefined, undefined, false);
      viewsAdded.add(kind);
      return compile(view.of(schema));
    },
  };
}

/**
 * The options every Ajv of the toolkit shares (scripts/write-meta-schema.js compiles the kept
 * meta-schema validator with the same; test/shared/meta-schema.test.ts holds it to them).
 */
export const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  // Errors carry their schema: `required` is then read as OpenAPI reads it (directionalErrors).
  verbose: true,
  validateFormats: true,
  // Each referenced schema compiled once as its own function, not copied into every schema that
  // refers to it (small ones, 16 keywords or fewer, stay inline): GitHub's response schemas
  // compiled in 9 s of CPU instead of 12, the service's validate as fast as before.
  inlineRefs: 16,
} as const;

/** Whether Ajv optimises the code it compiles (its `code.optimize`; see compileForFewValidations). */
let optimizeCode = true;

/**
 * For a thread that validates each schema a few times and then ends (a contract run's worker and
 * its embedded mock): Ajv's optimisation pass is about a fifth of each compile and buys under a
 * tenth of validation speed (the service's 250 response schemas: compile 340 -> 267 ms, 500,000
 * validations 513 -> 555 ms), so validators compiled after this call skip it (Box's contract run:
 * about 23 -> 19 CPU-s). What they accept is the same; a long-running server keeps the pass.
 */
export function compileForFewValidations(): void {
  optimizeCode = false;
}

/** An Ajv with the options every one of the toolkit's shares, and OpenAPI's formats. */
function newAjv(options: {
  coerceTypes: boolean | 'array';
  useDefaults: boolean;
  validateSchema: boolean;
}): Ajv2020 {
  const ajv = new Ajv2020({
    ...AJV_OPTIONS,
    ...options,
    // Description patterns that may backtrack without end run in linear time (safe-regexp.ts).
    code: { optimize: optimizeCode, regExp: safeRegExp },
    // Third-party descriptions use formats nobody defines (`uriref`, ...): those are not errors
    // (OpenAPI says unknown formats are annotations), so only that warning is dropped.
    logger: {
      log: console.log,
      warn: (...args: unknown[]) => {
        if (!String(args[0]).startsWith('unknown format')) console.warn(...args);
      },
      error: console.error,
    },
  });
  addFormatsModule.default(ajv);
  // OpenAPI's own formats: width hints and binary payloads, not string shapes Ajv can check.
  for (const name of ['int32', 'int64', 'float', 'double', 'binary', 'password']) {
    ajv.addFormat(name, { validate: () => true });
  }
  // `url` is no format of JSON Schema or OpenAPI; ajv-formats' regex for it refuses loopback and
  // private hosts (http://127.0.0.1:8080/x), which real answers carry. An absolute URL is asked.
  ajv.addFormat('url', { type: 'string', validate: isAbsoluteUrl });
  return ajv;
}

function isAbsoluteUrl(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

let checker: Ajv2020 | undefined;

const META_2020 = 'https://json-schema.org/draft/2020-12/schema';
type MetaValidate = ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };
let keptMeta: MetaValidate | null | undefined;

/**
 * The 2020-12 meta-schema's validator as Ajv's standalone code, written beside this module by
 * scripts/write-meta-schema.js with this module's options: loading it costs 2 to 3 ms, where
 * compiling the meta-schema cost each process (each thread) about 0.1 s. Null where it cannot be
 * loaded (a bundle without it): Ajv compiles the meta-schema then.
 */
function keptMetaValidator(): MetaValidate | null {
  if (keptMeta === undefined) {
    try {
      keptMeta = createRequire(import.meta.url)('./meta-schema-2020.cjs') as MetaValidate;
    } catch {
      keptMeta = null;
    }
  }
  return keptMeta;
}

/**
 * Throws Ajv's own "schema is invalid: ..." when `schema` fails the JSON Schema meta-schema. A
 * schema naming its own `$schema` is checked by Ajv itself, as Ajv would.
 */
function metaChecked(schema: JsonSchema | object): void {
  const object = typeof schema === 'object' && schema !== null;
  const declared = object ? (schema as { $schema?: unknown }).$schema : undefined;
  const kept = object && (declared ?? META_2020) === META_2020 ? keptMetaValidator() : null;
  if (kept) {
    if (kept(schema)) return;
    // Ajv's errorsText, as Ajv's validateSchema words it.
    const text = (kept.errors ?? []).map((e) => `data${e.instancePath} ${e.message}`).join(', ');
    throw new Error(`schema is invalid: ${text || 'No errors'}`);
  }
  checker ??= newAjv({ coerceTypes: false, useDefaults: false, validateSchema: true });
  checker.validateSchema(schema as object, true);
}

/** A schema's JSON text (its identity for the compile cache), or undefined when it has none. */
function textOf(schema: JsonSchema): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined; // a cycle: compiled by identity only
  }
}

/**
 * Whether the model's schema root passes the JSON Schema meta-schema (the check every Ajv of the
 * model makes, once per process): what a kept model records, so that a later process need not
 * check it again (scripts/spec-model.ts).
 */
export function schemaRootValid(model: ServiceModel): boolean {
  try {
    validatorFor(model);
    return true;
  } catch {
    return false;
  }
}

/**
 * A root an earlier process found valid (schemaRootValid, kept with the model it belongs to):
 * GitHub's took a quarter of a second of the mock's first answer to check again.
 */
export function trustSchemaRoot(root: object): void {
  checkedRoots.add(root);
}

const coercing = new WeakMap<ServiceModel, SchemaValidator>();

/**
 * The model's coercing validator (`coerceTypes: 'array'`): parameters and form fields, read
 * from text. One per model and process, shared by the server and the contract checks.
 */
export function coercingValidatorFor(model: ServiceModel): SchemaValidator {
  let v = coercing.get(model);
  if (!v) coercing.set(model, (v = createSchemaValidator(model, { coerceTypes: 'array' })));
  return v;
}

/** The default validator of a model (no coercion): for checking responses. */
export function validatorFor(model: ServiceModel): SchemaValidator {
  let v = validators.get(model);
  if (!v) validators.set(model, (v = createSchemaValidator(model)));
  return v;
}

/** Ajv errors as short lines: `/Data/0/AQI must be string (got 42)`. */
export function describeErrors(
  errors: ErrorObject[] | null | undefined,
  data: unknown,
  limit = 5,
): string[] {
  return (errors ?? []).slice(0, limit).map((e) => {
    const at = e.instancePath || '/';
    let value: unknown = data;
    for (const token of e.instancePath.split('/').slice(1)) {
      const key = unescapeToken(token);
      value =
        typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)[key]
          : undefined;
    }
    const extra =
      e.keyword === 'additionalProperties'
        ? ` ${JSON.stringify((e.params as { additionalProperty?: string }).additionalProperty)}`
        : '';
    return `${at} ${e.message ?? 'is invalid'}${extra} (got ${excerpt(value, 60)})`;
  });
}

/**
 * Ajv's errors without the `required` ones OpenAPI waives: a readOnly property is required in
 * responses only, a writeOnly one in requests only ("the required will take effect on the
 * response only"). The errors must come from a validator of this module (verbose).
 */
export function directionalErrors(
  model: ServiceModel,
  errors: ErrorObject[] | null | undefined,
  direction: 'request' | 'response',
): ErrorObject[] {
  const waived = direction === 'request' ? 'readOnly' : 'writeOnly';
  return (errors ?? []).filter((e) => {
    if (e.keyword !== 'required' || typeof e.parentSchema !== 'object') return true;
    const missing = (e.params as { missingProperty?: string }).missingProperty ?? '';
    const properties = (e.parentSchema as { properties?: Record<string, unknown> }).properties;
    return !(
      properties &&
      Object.hasOwn(properties, missing) &&
      flagged(model, properties[missing], waived)
    );
  });
}
