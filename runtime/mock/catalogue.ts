/**
 * What the mock answers each operation with, prepared once at start-up: the success examples of
 * the spec (each validated against its schema: a bad example is a start-up error naming the
 * operation and the example), split into payload and envelope status fields, or a schema-derived
 * sample where the spec has no example.
 */
import type { JsonSchema, Operation, ServiceModel } from 'dataapi/model';
import { buildEnvelope, codeGroupOf, describeErrors, validatorFor } from 'dataapi/runtime/shared';
import { respond, type ServiceResult } from 'dataapi/runtime/server';
import { hashText, sample } from 'dataapi/runtime/sampler';

export interface CannedStatus {
  code?: number;
  description?: string;
  totalCount?: number;
  extra?: Record<string, unknown>;
}

export interface Canned {
  name: string;
  payload: unknown;
  status: CannedStatus;
  /** The answer as a constant result (serialised once by the server). */
  result: ServiceResult;
}

export interface OperationMock {
  op: Operation;
  /** The answer without a scenario: the first example, or a sample. */
  fallback: Canned;
  byName: Map<string, Canned>;
  names: string[];
  /** The schema a dynamic sample is drawn from (the payload's, or the whole body's). */
  sampleSchema: JsonSchema | undefined;
  /** Payload to pair with a non-success business code (null when the schema allows it). */
  failurePayload: unknown;
  seed: number;
}

export class MockExampleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MockExampleError';
  }
}

function split(op: Operation, name: string, value: unknown): Canned {
  const env = op.envelope;
  if (!env || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return canned(name, value, {});
  }
  const body = value as Record<string, unknown>;
  const raw = body[env.statusKey];
  const statusObject =
    typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const status: CannedStatus = {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(statusObject)) {
    if (k === env.codeField && typeof v === 'number') status.code = v;
    else if (k === env.descriptionField && typeof v === 'string') status.description = v;
    else if (k === env.totalCountField && typeof v === 'number') status.totalCount = v;
    else if (k !== env.dateTimeField) extra[k] = v;
  }
  if (Object.keys(extra).length > 0) status.extra = extra;
  return canned(name, body[env.payloadKey], status);
}

function canned(name: string, payload: unknown, status: CannedStatus): Canned {
  return { name, payload, status, result: respond(payload, status, { constant: true }) };
}

export interface CatalogueOptions {
  seed: number;
  /** What to do with an example that does not match its schema (default 'error'). */
  invalidExamples?: 'error' | 'skip';
  /** Told about each skipped example. */
  onSkip?: (message: string) => void;
}

export function buildCatalogue(
  model: ServiceModel,
  options: CatalogueOptions,
): Map<string, OperationMock> {
  const { seed } = options;
  const refuse = (message: string) => {
    if (options.invalidExamples !== 'skip') throw new MockExampleError(message);
    options.onSkip?.(message);
  };
  const validator = validatorFor(model);
  const out = new Map<string, OperationMock>();
  for (const op of model.operations) {
    const success = op.success;
    const schema = success?.schema;
    const check =
      schema !== undefined && success?.kind === 'json' ? validator.compile(schema) : undefined;
    const byName = new Map<string, Canned>();
    for (const example of success?.examples ?? []) {
      if (check && !check(example.value)) {
        refuse(
          `mock: example ${JSON.stringify(example.name)} of operation ${op.id} (${op.method.toUpperCase()} ${op.path}) does not match its response schema:\n  ${describeErrors(check.errors, example.value).join('\n  ')}`,
        );
        continue;
      }
      byName.set(example.name, split(op, example.name, example.value));
    }
    // Error examples too: a wrong one would mislead whoever reads the spec.
    for (const response of op.responses) {
      if (response === success || response.schema === undefined || response.kind !== 'json')
        continue;
      const checkError = validator.compile(response.schema);
      for (const example of response.examples) {
        if (!checkError(example.value)) {
          refuse(
            `mock: example ${JSON.stringify(example.name)} of operation ${op.id} (${op.method.toUpperCase()} ${op.path}), response ${response.status}, does not match its schema:\n  ${describeErrors(checkError.errors, example.value).join('\n  ')}`,
          );
        }
      }
    }
    const sampleSchema = op.envelope ? op.payloadSchema : schema;
    const opSeed = (hashText(op.id) ^ seed) >>> 0;
    const fallback: Canned =
      byName.values().next().value ??
      canned(
        'sample',
        sampleSchema === undefined ? null : sample(model, sampleSchema, { seed: opSeed }),
        {},
      );
    out.set(op.id, {
      op,
      fallback,
      byName,
      names: [...byName.keys()],
      sampleSchema,
      failurePayload: failurePayload(model, op, check, fallback),
      seed: opSeed,
    });
  }
  return out;
}

/** null if the body schema takes a null payload, else an empty list, else the fallback's payload. */
function failurePayload(
  model: ServiceModel,
  op: Operation,
  check: ((v: unknown) => boolean) | undefined,
  fallback: Canned,
): unknown {
  if (!op.envelope || !check) return null;
  const code = codeGroupOf(model, op)?.codes.find((c) => c.outcome !== 'ok')?.code ?? 0;
  for (const candidate of [null, []]) {
    if (check(buildEnvelope(op, candidate, { code, description: 'x', totalCount: 0 })))
      return candidate;
  }
  return fallback.payload;
}
