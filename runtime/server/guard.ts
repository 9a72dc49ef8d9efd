/**
 * What cannot be served: a route find-my-way refuses (a `*` inside a path, a duplicate it cannot
 * tell apart) or a schema Ajv cannot compile would otherwise stop the whole server at start-up. Each such operation is reported as a located finding and
 * answers 501 instead, while every other operation serves.
 */
import { findingOf, type Finding, type Operation, type ServiceModel } from 'dataapi/model';
import { HttpError } from './errors.ts';
import { validatorsFor, TEXT_FIELDS, type RouteSchemas } from './validation.ts';

export interface RouteGuard {
  /** Why a route's schemas cannot be compiled, or undefined when they compile. */
  compile(schemas: RouteSchemas): string | undefined;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}

/**
 * A route Fastify's router refuses is not tried here on a router of its own (that doubled the
 * routing work of a large description's start): Fastify's `route()` throws before it changes
 * anything, and registerService answers that operation with a 501 (`routeRefused`).
 */
export function createRouteGuard(model: ServiceModel): RouteGuard {
  const v = validatorsFor(model);
  return {
    compile(schemas) {
      for (const [part, schema] of Object.entries(schemas)) {
        if (schema === undefined) continue;
        const text = part === 'body' && !(typeof schema === 'object' && TEXT_FIELDS in schema);
        try {
          // As the route compiles it (validation.ts compileOrRefuse): then compiled once.
          (text ? v.body : v.params).compileFor(
            schema as never,
            part === 'body' ? 'request' : 'parameter',
          );
        } catch (error) {
          return `its ${part} schema cannot be compiled: ${message(error)}`;
        }
      }
      return undefined;
    },
  };
}

/** Why Fastify refused an operation's route (thrown by `app.route()`). */
export function routeRefused(error: unknown): string {
  return `its path cannot be routed: ${message(error)}`;
}

/** The finding of an operation that cannot be served. */
export function unservableFinding(model: ServiceModel, op: Operation, reason: string): Finding {
  return findingOf({
    code: 'operation-not-served',
    message: `${op.method.toUpperCase()} ${op.pathKey ?? op.path} (${op.id}) answers 501: ${reason}`,
    file: model.findings?.[0]?.file ?? '',
    pointer: op.pointer,
    operation: op.id,
  });
}

/** The 501 an unservable operation answers. */
export function notServed(op: Operation, reason: string): HttpError {
  return new HttpError(501, `Operation ${op.id} cannot be served: ${reason} (see #${op.pointer})`, {
    outcome: 'service_error',
  });
}
