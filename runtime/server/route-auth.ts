/**
 * Authentication as a route behaviour: an `onRoute` hook gives every operation route that takes a
 * key (`config.dataapi.needsKey`) a `preValidation` hook (after the body is parsed: the article
 * extraction carries its key in the JSON body) that reads the key the ways the operation takes it
 * and asks the verifier. The accepted key is remembered for the rate limiter and the handler.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, readKey, type VerifyKey } from './auth.ts';
import { appendDoneHook, contextOf, onOperationRoute } from './route-context.ts';

const accepted = new WeakMap<FastifyRequest, string>();

/** The key this request was accepted with (never log it), if it gave one. */
export function acceptedKey(request: FastifyRequest): string | undefined {
  return accepted.get(request);
}

/** Adds authentication to every operation route registered after this call. */
export function installAuth(app: FastifyInstance, verify: VerifyKey | undefined): void {
  onOperationRoute(app, (routeOptions) => {
    const ctx = contextOf(routeOptions);
    if (!ctx?.needsKey) return;
    const { op, optionalKey } = ctx;
    // Not async: with a verifier that answers at once, no promise per request (a throw is
    // Fastify's error path as a rejection is).
    appendDoneHook(routeOptions, 'preValidation', (request, _reply, done) => {
      // An optional key may be absent; one that is given must still be a good one.
      if (optionalKey && readKey(request, op.auth.transports) === undefined) return done();
      const key = authenticate(request, op, verify);
      if (typeof key === 'string') {
        accepted.set(request, key);
        return done();
      }
      key.then((k) => {
        accepted.set(request, k);
        done();
      }, done);
    });
  });
}
