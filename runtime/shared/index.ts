/**
 * Runtime pieces shared by generated servers, the mock, the client and the contract tests:
 * one Ajv (JSON Schema 2020-12 + formats) per model with compiled validators cached, envelope
 * reading for both spellings, business-code outcomes, and redaction of the key.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  unescapeToken,
  type BusinessCodeGroup,
  type JsonSchema,
  type Operation,
  type Outcome,
  type ServiceModel,
} from 'dataapi/model';

export type { ErrorObject, ValidateFunction };
export { deref, isArraySchema, propertiesOf, resolveRef } from 'dataapi/model';
export * from './credentials.ts';
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

export interface SchemaValidator {
  ajv: Ajv2020;
  /** Compiles once per schema object (cached by identity). */
  compile(schema: JsonSchema): ValidateFunction;
}

const validators = new WeakMap<ServiceModel, SchemaValidator>();

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
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
    validateFormats: true,
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
  ajv.addSchema(model.schemaRoot as object);
  const cache = new WeakMap<object, ValidateFunction>();
  const booleans = new Map<boolean, ValidateFunction>();
  return {
    ajv,
    compile(schema) {
      if (typeof schema === 'boolean') {
        const known = booleans.get(schema);
        if (known) return known;
        const compiled = ajv.compile(schema);
        booleans.set(schema, compiled);
        return compiled;
      }
      const known = cache.get(schema);
      if (known) return known;
      const compiled = ajv.compile(schema);
      cache.set(schema, compiled);
      return compiled;
    },
  };
}

/** The default validator of a model (no coercion): for checking responses. */
export function validatorFor(model: ServiceModel): SchemaValidator {
  let v = validators.get(model);
  if (!v) validators.set(model, (v = createSchemaValidator(model)));
  return v;
}

export function findOperation(model: ServiceModel, id: string): Operation {
  const op = model.operations.find((o) => o.id === id);
  if (!op) throw new Error(`unknown operation ${JSON.stringify(id)}`);
  return op;
}

export function codeGroupOf(model: ServiceModel, op: Operation): BusinessCodeGroup | undefined {
  return op.businessCodes === undefined
    ? undefined
    : model.businessCodeGroups.find((g) => g.name === op.businessCodes);
}

export interface EnvelopeReading {
  /** The status object under the operation's own spelling, if present. */
  status?: Record<string, unknown>;
  payload: unknown;
  code?: number;
  description?: string;
  totalCount?: number;
  /** Keys of the other spelling that the body carries and the operation does not tolerate. */
  foreignKeys: string[];
  /** Whether the operation's own status and payload keys are both present. */
  wellFormed: boolean;
}

const OTHER: Record<string, string[]> = {
  capitalised: ['dataStatus', 'data'],
  lowerCamel: ['DataStatus', 'Data'],
};

/** Reads a body in the operation's envelope spelling; plain JSON operations pass through. */
export function readEnvelope(op: Operation, body: unknown): EnvelopeReading {
  const env = op.envelope;
  if (!env) return { payload: body, foreignKeys: [], wellFormed: true };
  const obj =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const rawStatus = obj[env.statusKey];
  const status =
    typeof rawStatus === 'object' && rawStatus !== null
      ? (rawStatus as Record<string, unknown>)
      : undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const foreignKeys = (OTHER[env.spelling] ?? []).filter(
    (k) => k in obj && !env.toleratedKeys.includes(k),
  );
  return {
    ...(status ? { status } : {}),
    payload: obj[env.payloadKey],
    ...(num(status?.[env.codeField]) !== undefined ? { code: num(status?.[env.codeField]) } : {}),
    ...(typeof status?.[env.descriptionField] === 'string'
      ? { description: status[env.descriptionField] as string }
      : {}),
    ...(num(status?.[env.totalCountField]) !== undefined
      ? { totalCount: num(status?.[env.totalCountField]) }
      : {}),
    foreignKeys,
    wellFormed: status !== undefined && env.payloadKey in obj,
  };
}

/** The canonical outcome of a business code in the operation's group ('ok' when it is the success code). */
export function outcomeOf(
  model: ServiceModel,
  op: Operation,
  code: number | undefined,
): { outcome?: Outcome; meaning?: string } {
  const group = codeGroupOf(model, op);
  if (!group || code === undefined) return {};
  const entry = group.codes.find((c) => c.code === code);
  return entry ? { outcome: entry.outcome, meaning: entry.meaning } : {};
}

/** Builds an envelope body for an operation (servers and the mock). */
export function buildEnvelope(
  op: Operation,
  payload: unknown,
  status: {
    code: number;
    description: string;
    totalCount?: number;
    extra?: Record<string, unknown>;
  },
  now: Date = new Date(),
): unknown {
  const env = op.envelope;
  if (!env) return payload;
  const statusObject: Record<string, unknown> = {
    [env.codeField]: status.code,
    [env.descriptionField]: status.description,
    [env.dateTimeField]: now.toISOString(),
    [env.totalCountField]:
      status.totalCount ?? (Array.isArray(payload) ? payload.length : payload == null ? 0 : 1),
    ...status.extra,
  };
  return { [env.statusKey]: statusObject, [env.payloadKey]: payload };
}

/** Short, single-line excerpt of a value for messages. */
export function excerpt(value: unknown, max = 120): string {
  let text: string;
  try {
    text =
      typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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
