/**
 * Cookie parameters (`in: cookie`) validated like the others: Fastify parses no cookies, so
 * without this a declared `cookieInt` took "abc". The values are read from the Cookie header,
 * coerced as query values are, and a wrong or missing required one is a 400.
 */
import type { FastifyRequest } from 'fastify';
import type { Operation, ServiceModel } from 'dataapi/model';
import { readCookie } from 'dataapi/runtime/shared';
import { HttpError } from './errors.ts';
import { validatorsFor } from './validation.ts';

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The check of an operation's cookie parameters, or undefined when it declares none. */
export function cookieCheck(
  model: ServiceModel,
  op: Operation,
): ((request: Pick<FastifyRequest, 'headers'>) => Record<string, unknown>) | undefined {
  const params = op.parameters.cookie.filter((p) => p.fixed === undefined);
  if (params.length === 0) return undefined;
  const schema = {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
  return (request) => {
    const header = request.headers.cookie;
    const text = Array.isArray(header) ? header.join('; ') : header;
    const bag: Record<string, unknown> = {};
    for (const p of params) {
      const value = readCookie(text, p.name);
      if (value !== undefined) bag[p.name] = decoded(value);
    }
    const coercing = validatorsFor(model).params;
    const validate = coercing.compile(schema);
    // The values as coerced (defaults not filled in): the hook reads none; the agreement check does.
    if (validate(bag)) return bag;
    const why = coercing.ajv.errorsText(validate.errors, { dataVar: 'cookie' });
    throw new HttpError(400, why, { outcome: 'invalid_parameters' });
  };
}
