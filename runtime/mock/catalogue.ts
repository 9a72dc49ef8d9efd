/**
 * What the mock answers each operation with, prepared once at start-up: the success examples of
 * the spec (each validated against its schema: a bad example is a start-up error naming the
 * operation and the example), split into payload and envelope status fields, or a schema-derived
 * sample where the spec has no example.
 */
import {
  escapeToken,
  findingOf,
  joinPointer,
  splitPointer,
  type Finding,
  type FindingCode,
  type JsonSchema,
  type Operation,
  type Response,
  type SchemaRoot,
  type ServiceModel,
} from 'dataapi/model';
import {
  buildEnvelope,
  isXmlMedia,
  toXml,
  codeGroupOf,
  exampleFault,
  invalidExample,
  validatorFor,
  type SchemaValidator,
} from 'dataapi/runtime/shared';
import { respond, type ServiceResult } from 'dataapi/runtime/server';
import { hashText, sample } from 'dataapi/runtime/sampler';
import { xmlFault } from 'dataapi/runtime/xml';

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
  /**
   * An example that does not match its schema: answered with a schema sample under its name
   * ('sample', the default), left out ('skip') or refused at start-up ('error').
   */
  invalidExamples?: 'sample' | 'skip' | 'error';
  /** Told about each example left out or replaced (the finding's message). */
  onSkip?: (message: string) => void;
  /** Told about each finding (invalid examples, response schemas Ajv cannot compile). */
  onFinding?: (finding: Finding) => void;
  /**
   * When each operation's examples are checked (and its schemas compiled, its fallback sampled):
   * all at start-up ('start', the default), or the first time the operation is asked for
   * ('first-use': a large description starts at once; findings come with the first request;
   * 'background' prepares them the same way here, the mock then asks for the others once it
   * listens). Strict mode (`invalidExamples: 'error'`) always checks at start-up.
   */
  check?: 'start' | 'first-use' | 'background';
}

/** Each operation's mock, by operation id. */
export interface Catalogue {
  get(id: string): OperationMock | undefined;
}

type Check = ((value: unknown) => boolean) & { errors?: unknown };

/** Compiles a response schema; one Ajv cannot compile is a finding and checks nothing. */
function compileOrReport(
  validator: SchemaValidator,
  schema: JsonSchema,
  report: (code: FindingCode, pointer: string, message: string) => void,
  pointer: string,
): Check | undefined {
  try {
    return validator.compile(schema) as Check;
  } catch (error) {
    report(
      'response-schema-not-compiled',
      pointer,
      `response schema cannot be compiled (${(error as Error).message.split('\n')[0]}): answers are not checked against it`,
    );
    return undefined;
  }
}

/** A sample in the shape the response's media type is sent in (SSE events, bytes, text). */
export function asMedia(
  kind: Response['kind'] | undefined,
  value: unknown,
  xml?: XmlBody,
): unknown {
  // Only XML declared: the value written as XML by its schema's hints (an XML text example as is).
  // A text that is not XML (a sample of `type: string, format: binary` for image/svg+xml: corpus
  // netdata, Rocket.Chat) is the text of one element: the media type promises XML.
  if (
    xml &&
    !(value instanceof Uint8Array) &&
    (typeof value !== 'string' || xmlFault(value) !== undefined)
  )
    value = toXml(xml.model, xml.schema, value);
  if (kind === 'sse') {
    const data = typeof value === 'string' ? value : JSON.stringify(value ?? null);
    return `${data
      .split('\n')
      .map((line) => `data: ${line}`)
      .join('\n')}\n\n`;
  }
  if (kind === 'binary') {
    if (value instanceof Uint8Array) return value;
    return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value ?? null), 'utf8');
  }
  if (kind === 'text') return typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return value;
}

/** What writing a response as XML needs: the model (for `$ref`s) and the schema. */
export interface XmlBody {
  model: SchemaRoot;
  schema: JsonSchema | undefined;
}

/** The XML writing of a response whose media type is XML, undefined for any other. */
export function xmlBodyOf(model: SchemaRoot, r: Response | undefined): XmlBody | undefined {
  return r && isXmlMedia(r.mediaType) ? { model, schema: r.schema } : undefined;
}

const mediaPointer = (op: Operation, r: Response) =>
  joinPointer(...splitPointer(op.pointer), 'responses', r.status, 'content', r.mediaType ?? '');

/** What building one operation's mock needs: the run's model, options, validator and findings. */
interface BuildContext {
  model: ServiceModel;
  seed: number;
  mode: NonNullable<CatalogueOptions['invalidExamples']>;
  validator: SchemaValidator;
  report: (code: FindingCode, pointer: string, message: string, op?: Operation) => void;
  /** An example that does not match its schema: an error in strict mode, else a finding. */
  refuse: (invalid: { message: string; pointer: string }, op: Operation) => void;
}

export function buildCatalogue(model: ServiceModel, options: CatalogueOptions): Catalogue {
  const ctx = buildContext(model, options);
  const build = (op: Operation) => buildOperation(ctx, op);
  if ((options.check ?? 'start') === 'start' || ctx.mode === 'error') return buildAll(model, build);
  return buildOnFirstUse(model, build);
}

function buildContext(model: ServiceModel, options: CatalogueOptions): BuildContext {
  const mode = options.invalidExamples ?? 'sample';
  const report: BuildContext['report'] = (code, pointer, message, op) => {
    options.onFinding?.(
      findingOf({
        code,
        message,
        file: model.findings?.[0]?.file ?? '',
        pointer,
        ...(op ? { operation: op.id } : {}),
      }),
    );
  };
  return {
    model,
    seed: options.seed,
    mode,
    // Taken on first use, not here: the model's Ajv is made lazily (first-use mode starts sooner).
    get validator() {
      return validatorFor(model);
    },
    report,
    refuse: ({ message, pointer }, op) => {
      if (mode === 'error') throw new MockExampleError(message);
      options.onSkip?.(message);
      report('example-invalid', pointer, message, op);
    },
  };
}

/** Every operation at start-up. */
function buildAll(model: ServiceModel, build: (op: Operation) => OperationMock): Catalogue {
  return new Map(model.operations.map((op) => [op.id, build(op)]));
}

/** Each operation the first time it is asked for. */
function buildOnFirstUse(model: ServiceModel, build: (op: Operation) => OperationMock): Catalogue {
  const ops = new Map(model.operations.map((op) => [op.id, op]));
  const built = new Map<string, OperationMock>();
  return {
    get(id) {
      const op = ops.get(id);
      let mock = built.get(id);
      if (!mock && op) built.set(id, (mock = build(op)));
      return mock;
    },
  };
}

function buildOperation(ctx: BuildContext, op: Operation): OperationMock {
  const { model } = ctx;
  const success = op.success;
  const opSeed = (hashText(op.id) ^ ctx.seed) >>> 0;
  const sampleSchema = op.envelope ? op.payloadSchema : success?.schema;
  const sampled = () =>
    asMedia(
      success?.kind,
      sampleSchema === undefined ? null : sample(model, sampleSchema, { seed: opSeed }),
      xmlBodyOf(model, success),
    );
  const check = successCheck(ctx, op);
  const byName = successExamples(ctx, op, check, sampled);
  checkErrorExamples(ctx, op);
  const fallback: Canned = byName.values().next().value ?? canned('sample', sampled(), {});
  return {
    op,
    fallback,
    byName,
    names: [...byName.keys()],
    sampleSchema,
    failurePayload: failurePayload(model, op, check, fallback),
    seed: opSeed,
  };
}

/** The success response's JSON schema, compiled (undefined when there is none, or it cannot be). */
function successCheck(ctx: BuildContext, op: Operation): Check | undefined {
  const success = op.success;
  const schema = success?.schema;
  if (schema === undefined || success?.kind !== 'json') return undefined;
  return compileOrReport(
    ctx.validator,
    schema,
    (c, p, m) => ctx.report(c, p, m, op),
    `${mediaPointer(op, success)}/schema`,
  );
}

/** The success examples by name; one that does not match its schema is refused or replaced. */
function successExamples(
  ctx: BuildContext,
  op: Operation,
  check: Check | undefined,
  sampled: () => unknown,
): Map<string, Canned> {
  const success = op.success;
  const at = success ? mediaPointer(op, success) : op.pointer;
  const byName = new Map<string, Canned>();
  const xml = xmlBodyOf(ctx.model, success);
  const instead = ctx.mode === 'sample' ? 'answered with a schema sample instead' : 'left out';
  // An XML text example must be XML (corpus ODK Central: an XML declaration after two spaces);
  // a JSON one must match its schema, where the schema compiled (else successCheck said so).
  const reading = {
    ...(xml ? { media: { type: success!.mediaType!, fault: xmlFault } } : {}),
    schema: check !== undefined,
  };
  for (const example of success?.examples ?? []) {
    const fault = exampleFault(ctx.model, success?.schema, example.value, reading);
    if (fault) {
      ctx.refuse(
        invalidExample({
          operation: op.id,
          pointer: `${at}/examples/${escapeToken(example.name)}`,
          subject: `mock: example ${JSON.stringify(example.name)} of operation ${op.id} (${op.method.toUpperCase()} ${op.path})`,
          fault,
          value: example.value,
          instead,
          schemaName: 'its response schema',
          wording: 'mock',
        }),
        op,
      );
      if (ctx.mode === 'sample') byName.set(example.name, canned(example.name, sampled(), {}));
      continue;
    }
    byName.set(example.name, split(op, example.name, asMedia(success?.kind, example.value, xml)));
  }
  return byName;
}

/** Error examples too: a wrong one would mislead whoever reads the spec. */
function checkErrorExamples(ctx: BuildContext, op: Operation): void {
  for (const response of op.responses) {
    // By status: a model read back from JSON holds the success response as a copy.
    if (
      response.status === op.success?.status ||
      response.schema === undefined ||
      response.kind !== 'json'
    )
      continue;
    const where = mediaPointer(op, response);
    const checkError = compileOrReport(
      ctx.validator,
      response.schema,
      (c, p, m) => ctx.report(c, p, m, op),
      `${where}/schema`,
    );
    if (!checkError) continue;
    for (const example of response.examples) {
      const fault = exampleFault(ctx.model, response.schema, example.value);
      if (fault)
        ctx.refuse(
          invalidExample({
            operation: op.id,
            pointer: `${where}/examples/${escapeToken(example.name)}`,
            subject: `mock: example ${JSON.stringify(example.name)} of operation ${op.id} (${op.method.toUpperCase()} ${op.path}), response ${response.status},`,
            fault,
            value: example.value,
            wording: 'mock',
          }),
          op,
        );
    }
  }
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
