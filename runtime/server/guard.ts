/**
 * What cannot be served is found before Fastify sees it: a route find-my-way refuses (a `*` or a
 * `(` in a path, a duplicate it cannot tell apart) or a schema Ajv cannot compile would otherwise
 * stop the whole server at start-up. Each such operation is reported as a located finding and
 * answers 501 instead, while every other operation serves.
 */
import FindMyWay from 'find-my-way';
import type { Finding, Operation, ServiceModel } from 'dataapi/model';
import { HttpError } from './errors.ts';
import { validatorsFor, TEXT_FIELDS, type RouteSchemas } from './validation.ts';
import { OPERATION_CONSTRAINT, operationStrategy } from './choose.ts';

export interface RouteGuard {
  /** Why the operation's route cannot be served, or undefined when it can. */
  check(
    op: Operation,
    method: string,
    url: string,
    schemas: RouteSchemas,
    constraint?: string,
  ): string | undefined;
  /** Why a route's schemas cannot be compiled, or undefined when they compile. */
  compile(schemas: RouteSchemas): string | undefined;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/**
 * `compileAtStart`: check() compiles the route's schemas too (else the caller calls compile()
 * itself when the route is first asked for).
 */
export function createRouteGuard(model: ServiceModel, compileAtStart = true): RouteGuard {
  const router = FindMyWay({
    maxParamLength: 1000,
    constraints: { [OPERATION_CONSTRAINT]: operationStrategy(model) as never },
  });
  const v = validatorsFor(model);
  const compile = (schemas: RouteSchemas) => {
    for (const [part, schema] of Object.entries(schemas)) {
      if (schema === undefined) continue;
      const text = part === 'body' && !(typeof schema === 'object' && TEXT_FIELDS in schema);
      try {
        (text ? v.body : v.params).compile(schema as never);
      } catch (error) {
        return `its ${part} schema cannot be compiled: ${message(error)}`;
      }
    }
    return undefined;
  };
  return {
    compile,
    check(op, method, url, schemas, constraint) {
      const problem = compileAtStart ? compile(schemas) : undefined;
      if (problem !== undefined) return problem;
      try {
        router.on(
          method as 'GET',
          url,
          constraint ? { constraints: { [OPERATION_CONSTRAINT]: constraint } } : {},
          () => {},
        );
      } catch (error) {
        return `its path cannot be routed: ${message(error)}`;
      }
      return undefined;
    },
  };
}

/** The finding of an operation that cannot be served. */
export function unservableFinding(model: ServiceModel, op: Operation, reason: string): Finding {
  return {
    code: 'operation-not-served',
    message: `${op.method.toUpperCase()} ${op.pathKey ?? op.path} (${op.id}) answers 501: ${reason}`,
    file: model.findings?.[0]?.file ?? '',
    pointer: op.pointer,
    operation: op.id,
  };
}

/** The 501 an unservable operation answers. */
export function notServed(op: Operation, reason: string): HttpError {
  return new HttpError(501, `Operation ${op.id} cannot be served: ${reason} (see #${op.pointer})`, {
    outcome: 'service_error',
  });
}
