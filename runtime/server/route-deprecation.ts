/**
 * A deprecated operation says so on every answer, errors included: `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) when the description gives a day, and `Link` to its successor
 * (`successor-version`). Set in the first `onRequest` hook, before any check can refuse the
 * request; Fastify keeps headers already set when an error is answered. The values come from the
 * model (`deprecationHeaders`), the same the contract check expects.
 */
import type { FastifyInstance } from 'fastify';
import { deprecationHeaders, type ServiceModel } from 'dataapi/model';
import { appendHook, contextOf, onOperationRoute } from './route-context.ts';

export function installDeprecationHeaders(app: FastifyInstance, model: ServiceModel): void {
  onOperationRoute(app, (routeOptions) => {
    const ctx = contextOf(routeOptions);
    const headers = ctx ? deprecationHeaders(model, ctx.op) : undefined;
    if (!headers) return;
    appendHook(routeOptions, 'onRequest', async (_request, reply) => {
      reply.headers(headers);
    });
  });
}
