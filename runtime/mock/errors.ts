/**
 * The mock's own errors (missing or wrong credentials, wrong method or content type, too large,
 * rate limited, not served) in the shape the operation declares for that status: the declared
 * media type, and a body of the declared schema (its first valid example, else a sample) with
 * the message put into its message-like text field where the schema allows it.
 */
import type { Response, ServiceModel } from 'dataapi/model';
import { problemBody, type DescribeError, type ErrorAnswer } from 'dataapi/runtime/server';
import { validatorFor } from 'dataapi/runtime/shared';
import { asMedia, xmlBodyOf } from './catalogue.ts';
import { hashText, sample } from 'dataapi/runtime/sampler';

const MESSAGE_FIELDS = ['detail', 'message', 'error_description', 'errorMessage', 'title', 'error'];
const STATUS_FIELDS = ['status', 'statusCode', 'status_code', 'code'];

type Check = (value: unknown) => boolean;

export function mockErrorDescriber(model: ServiceModel, seed: number): DescribeError {
  const bases = new Map<Response, { value: unknown; check: Check | undefined }>();
  const baseOf = (r: Response, opId: string) => {
    let base = bases.get(r);
    if (base) return base;
    const validator = validatorFor(model); // the model's Ajv, made on first use
    let check: Check | undefined;
    try {
      check = r.schema === undefined || r.kind !== 'json' ? undefined : validator.compile(r.schema);
    } catch {
      check = undefined; // reported by the catalogue; the sample is sent unchecked
    }
    const example = r.examples.find((e) => !check || check(e.value));
    const value =
      example !== undefined
        ? example.value
        : r.schema !== undefined
          ? sample(model, r.schema, { seed: (hashText(`${opId} ${r.status}`) ^ seed) >>> 0 })
          : undefined;
    base = { value, check };
    bases.set(r, base);
    return base;
  };
  return (op, status, message, declared) =>
    withReason(describe(op, status, message, declared), message);
  function describe(...[op, status, message, declared]: Parameters<DescribeError>) {
    if (declared.mediaType === undefined) return { body: undefined };
    const { value, check } = baseOf(declared, op.id);
    if (value === undefined)
      return {
        mediaType: declared.mediaType,
        body: asMedia(declared.kind, problemBody(status, message), xmlBodyOf(model, declared)),
      };
    if (declared.kind !== 'json')
      return {
        mediaType: declared.mediaType,
        body: asMedia(declared.kind, value, xmlBodyOf(model, declared)),
      };
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { mediaType: declared.mediaType, body: value };
    const body = structuredClone(value) as Record<string, unknown>;
    const tryField = (name: string, v: unknown) => {
      if (!Object.hasOwn(body, name) || typeof body[name] !== typeof v) return;
      const before = body[name];
      body[name] = v;
      if (check && !check(body)) body[name] = before;
    };
    for (const f of MESSAGE_FIELDS) tryField(f, message);
    for (const f of STATUS_FIELDS) tryField(f, status);
    return { mediaType: declared.mediaType, body };
  }
}

/** The message beside a body of the description's (an example or sample, which does not say why). */
function withReason(answer: ErrorAnswer, message: string): ErrorAnswer {
  return answer.mediaType === undefined ? answer : { ...answer, reason: message };
}
