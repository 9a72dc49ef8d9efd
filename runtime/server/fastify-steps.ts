/**
 * The steps of Fastify's request lifecycle that a route of its own would run for an operation,
 * for the operations served through one route per method (dispatch.ts): its hook runner, and its
 * validation of params, body, query and headers (fastify/lib/hooks.js and lib/validation.js,
 * reproduced: order, errors, the app's schemaErrorFormatter).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteSchemas } from './validation.ts';

export type Done = (error?: Error | null) => void;
export type Hook = (request: FastifyRequest, reply: FastifyReply, done: Done) => unknown;
type Validate = ((data: unknown, context?: object) => unknown) & {
  errors?: unknown;
  schemaEnv?: unknown;
};
export type Compile = (input: {
  schema: unknown;
  method: string;
  url: string;
  httpPart: string;
  contentType?: string;
}) => Validate;
export type Formatter = (errors: unknown, dataVar: string) => Error;

/** Fastify's hook runner (lib/hooks.js): in order, stopping at an error or a sent reply. */
export function runHooks(
  hooks: Hook[],
  request: FastifyRequest,
  reply: FastifyReply,
  cb: Done,
): void {
  let i = 0;
  const next = (err?: Error | null): void => {
    if (err || i === hooks.length) return cb(err);
    let result: unknown;
    try {
      const hook = hooks[i++]!;
      if (reply.sent === true) return;
      result = hook(request, reply, next);
    } catch (error) {
      return cb(error as Error);
    }
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => next(),
        (error: unknown) => cb((error as Error) ?? new Error('promise rejected without an error')),
      );
    }
  };
  next();
}

/** Fastify's default (lib/context.js). */
const defaultFormatter: Formatter = (errors, dataVar) => {
  let text = '';
  for (const e of errors as { instancePath?: string; message?: string }[])
    text += `${dataVar}${e.instancePath || ''} ${e.message}, `;
  return new Error(text.slice(0, -2));
};

/** The app's schemaErrorFormatter (a Fastify option), else Fastify's default. */
export function formatterOf(app: FastifyInstance): Formatter {
  const key = Object.getOwnPropertySymbols(app).find(
    (s) => s.description === 'fastify.schemaErrorFormatter',
  );
  const own = key ? (app as unknown as Record<symbol, unknown>)[key] : undefined;
  return typeof own === 'function' ? (own as Formatter) : defaultFormatter;
}

/** Fastify's wrapValidationError (lib/validation.js). */
function wrap(result: unknown, dataVar: string, format: Formatter): Error {
  const error = (result instanceof Error ? result : format(result, dataVar)) as Error &
    Record<string, unknown>;
  error.statusCode = error.statusCode || 400;
  error.code = error.code || 'FST_ERR_VALIDATION';
  if (!(result instanceof Error)) error.validation = result;
  error.validationContext = error.validationContext || dataVar;
  return error;
}

/** Fastify's validateParam (lib/validation.js), for synchronous validators. */
function check(fn: Validate | undefined, request: FastifyRequest, name: string): unknown {
  if (fn == null) return false;
  const bag = request as unknown as Record<string, unknown>;
  const value = bag[name];
  let ret: unknown;
  try {
    const data = value === undefined ? null : value;
    ret = fn.schemaEnv ? fn(data, { parentData: request, parentDataProperty: name }) : fn(data);
  } catch (err) {
    (err as { statusCode?: number }).statusCode = 500;
    return err;
  }
  if (ret === false) return fn.errors;
  if (ret && (ret as { error?: unknown }).error) return (ret as { error: unknown }).error;
  if (ret && typeof ret === 'object' && 'value' in ret)
    bag[name] = (ret as { value: unknown }).value;
  return false;
}

/** An operation's validation: Fastify's compile of a route's schemas, and its order. */
export function validation(
  schema: RouteSchemas,
  compile: Compile,
  method: string,
  url: string,
  format: Formatter,
): (request: FastifyRequest) => Error | false {
  const c = (s: unknown, httpPart: string, contentType?: string) =>
    compile({ schema: s, method, url, httpPart, ...(contentType ? { contentType } : {}) });
  const headers = schema.headers !== undefined ? c(schema.headers, 'headers') : undefined;
  const content = (schema.body as { content?: Record<string, { schema: unknown }> } | undefined)
    ?.content;
  let body: Validate | Record<string, Validate> | undefined;
  if (schema.body !== undefined && content && typeof content === 'object') {
    body = Object.fromEntries(
      Object.keys(content).map((t) => [t, c(content[t]!.schema, 'body', t)]),
    );
  } else if (schema.body !== undefined) body = c(schema.body, 'body');
  const query = schema.querystring !== undefined ? c(schema.querystring, 'querystring') : undefined;
  const params = schema.params !== undefined ? c(schema.params, 'params') : undefined;
  return (request) => {
    let r = check(params, request, 'params');
    if (r) return wrap(r, 'params', format);
    const bodyFn =
      typeof body === 'function'
        ? body
        : body?.[(request as unknown as { mediaType: string }).mediaType];
    r = check(bodyFn, request, 'body');
    if (r) return wrap(r, 'body', format);
    r = check(query, request, 'query');
    if (r) return wrap(r, 'querystring', format);
    r = check(headers, request, 'headers');
    if (r) return wrap(r, 'headers', format);
    return false;
  };
}
