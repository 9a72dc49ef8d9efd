/**
 * The handler of one operation route: reads a multipart form within the limits, hands the
 * integrator's handler the validated input, and answers its payload in the operation's envelope
 * with the group's success code (a constant result is serialised once and stamped per request).
 * An operation without a handler answers 501 in its envelope.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Operation, ServiceModel } from 'dataapi/model';
import { buildEnvelope, codeGroupOf } from 'dataapi/runtime/shared';
import { CLOCK, DATE_MARK, DATE_MARK_JSON, nowIso } from './clock.ts';
import { HttpError, ServiceResult } from './errors.ts';
import { shapeFormValue } from './form-shape.ts';
import {
  formForValidation,
  readMultipart,
  type MultipartForm,
  type UploadedFile,
} from './multipart.ts';
import type { RouteContext } from './route-context.ts';
import { acceptedKey } from './route-auth.ts';
import { concreteMedia, isArraySchema, propertiesOf } from 'dataapi/model';
import type { OperationInput } from './types.ts';
import { fillDefaults, type Validators } from './validation.ts';
import { isJsonField } from './schema-types.ts';

/** What every handler receives (typed per operation by the generated Handlers type). */
export type HandlerInput = OperationInput<
  Record<string, unknown>,
  Record<string, unknown>,
  unknown
>;

export type Handler = (input: HandlerInput) => Promise<unknown>;

type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function successStatus(op: Operation): number {
  const n = Number(op.success?.status);
  return Number.isInteger(n) && n >= 200 && n < 300 ? n : 200;
}

function responseTypeOf(op: Operation): string {
  if (!op.success?.mediaType) return 'application/json; charset=utf-8';
  // A range (`image/*`) is no Content-Type: a type in it is sent.
  const type = concreteMedia(op.success.mediaType);
  return op.success.kind === 'json' ? `${type}; charset=utf-8` : type;
}

/** Reads a multipart body into validated fields and files (other bodies pass through). */
function multipartReader(
  model: ServiceModel,
  op: Operation,
  validators: Validators,
): ((request: FastifyRequest) => Promise<{ body: unknown; files?: UploadedFile[] }>) | undefined {
  const body = op.body;
  // GET and HEAD bodies are never read (validation.ts): a description's body there is not asked.
  if (body?.kind !== 'multipart' || op.method === 'get' || op.method === 'head') return undefined;
  const check = multipartCheck(model, op, validators)!;
  return async (request) => {
    if (!request.isMultipart()) {
      if (body.required) {
        throw new HttpError(400, `body must be ${body.mediaType}`, {
          outcome: 'invalid_parameters',
        });
      }
      return { body: request.body };
    }
    return check(await readMultipart(request));
  };
}

/**
 * A multipart form read into its validated fields and files, or a 400 naming what is wrong: the
 * pure step of `multipartReader` (no Fastify), which the agreement check runs too.
 */
export function multipartCheck(
  model: ServiceModel,
  op: Operation,
  validators: Validators,
): ((form: MultipartForm) => { body: Record<string, unknown>; files: UploadedFile[] }) | undefined {
  const body = op.body;
  if (body?.kind !== 'multipart') return undefined;
  const fileFields = body.fileFields ?? [];
  const arrayFields = new Set(
    [...propertiesOf(model, body.schema)]
      .filter(([, s]) => isArraySchema(model, s))
      .map(([k]) => k),
  );
  const jsonFields = new Set(
    [...propertiesOf(model, body.schema)]
      .filter(([k, s]) => !fileFields.includes(k) && isJsonField(model, s))
      .map(([k]) => k),
  );
  // Fields are text: a oneOf of a value and a list of them fits both (as for parameters).
  const validate = validators.params.compileFor(body.schema, 'text-request');
  return (form) => {
    // An empty field where the schema admits null is null (form-shape.ts).
    const value = shapeFormValue(
      model,
      body.schema,
      formForValidation(form, fileFields, arrayFields, jsonFields),
    ) as Record<string, unknown>;
    if (!validate(value)) {
      const text = validators.params.ajv.errorsText(validate.errors, { dataVar: 'body' });
      throw new HttpError(400, `body ${text}`, { outcome: 'invalid_parameters' });
    }
    fillDefaults(model, body.schema, value, validate);
    for (const f of fileFields) delete value[f];
    return { body: value, files: form.files };
  };
}

/** Serialises handler results in the operation's envelope. */
function envelopeWriter(model: ServiceModel, op: Operation) {
  const group = codeGroupOf(model, op);
  const successCode = group?.successCode ?? 100;
  const successText =
    group?.codes.find((c) => c.code === successCode)?.meaning ?? 'The business operation succeeded';
  const envelopeOf = (payload: unknown, explicit: ServiceResult | undefined, now: Date) => {
    const s = explicit?.status;
    return buildEnvelope(
      op,
      payload,
      {
        code: s?.code ?? successCode,
        description: s?.description ?? successText,
        ...(s?.totalCount !== undefined ? { totalCount: s.totalCount } : {}),
        ...(s?.extra ? { extra: s.extra } : {}),
      },
      now,
    );
  };
  /** Constant results of this route, serialised once and split around their date. */
  const serialised = new WeakMap<ServiceResult, [string, string]>();
  return (payload: unknown, explicit: ServiceResult | undefined): string => {
    if (!explicit?.constant) return JSON.stringify(envelopeOf(payload, explicit, CLOCK));
    let parts = serialised.get(explicit);
    if (!parts) {
      const text = JSON.stringify(envelopeOf(explicit.payload, explicit, DATE_MARK));
      const at = text.indexOf(DATE_MARK_JSON);
      parts = [text.slice(0, at), text.slice(at + DATE_MARK_JSON.length)];
      serialised.set(explicit, parts);
    }
    return parts[0] + nowIso() + parts[1];
  };
}

/** Maps Fastify's safe parameter aliases back to the operation's parameter names. */
function pathReader(aliases: Map<string, string>) {
  const pairs = [...aliases];
  if (!pairs.some(([a, n]) => a !== n)) return (params: Record<string, unknown>) => params;
  return (params: Record<string, unknown>) => {
    const path: Record<string, unknown> = {};
    for (const [alias, name] of pairs) path[name] = params[alias];
    return path;
  };
}

export function routeHandler(
  model: ServiceModel,
  ctx: RouteContext,
  handler: Handler | undefined,
  validators: Validators,
  aliases: Map<string, string>,
): RouteHandler {
  const { op, preview } = ctx;
  const status = successStatus(op);
  const responseType = responseTypeOf(op);
  const readForm = multipartReader(model, op, validators);
  const readPath = pathReader(aliases);
  const writeEnvelope = op.envelope ? envelopeWriter(model, op) : undefined;
  return async (request, reply) => {
    const form = readForm ? await readForm(request) : undefined;
    if (!handler) {
      throw new HttpError(501, `Operation ${op.id} is not implemented`, {
        outcome: 'service_error',
      });
    }
    const input: HandlerInput = {
      query: request.query as Record<string, unknown>,
      path: readPath(request.params as Record<string, unknown>),
      headers: request.headers,
      body: form ? form.body : request.body,
      request,
      reply,
      op,
      preview,
    };
    if (form?.files) input.files = form.files;
    const key = acceptedKey(request);
    if (key !== undefined) input.key = key;
    const result = await handler(input);
    if (reply.sent) return reply;
    const explicit = result instanceof ServiceResult ? result : undefined;
    const payload = explicit ? explicit.payload : result;
    if (explicit?.status.headers) reply.headers(explicit.status.headers);
    reply.code(explicit?.status.httpStatus ?? status);
    if (op.success?.kind === 'empty') return reply.send();
    reply.type(responseType);
    if (writeEnvelope) return reply.send(writeEnvelope(payload, explicit));
    return reply.send(
      op.success?.kind === 'json' || !op.success
        ? JSON.stringify(payload ?? null)
        : asText(payload),
    );
  };
}

/** A non-JSON payload as Fastify can send it (text, bytes or a stream; anything else as JSON). */
function asText(payload: unknown): unknown {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (typeof payload === 'object' && payload !== null && 'pipe' in payload) return payload;
  return payload === undefined ? '' : JSON.stringify(payload);
}
