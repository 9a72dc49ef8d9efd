/**
 * Fastify's structured logs (pino) for a deployment: request ids taken from a well-formed
 * `X-Request-Id` (else a new UUID) and echoed on every answer; the key never logged. The request
 * line's URL has the value of every query parameter that carries a key replaced, and the headers
 * that carry one are censored should anything log them.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ServiceModel } from 'dataapi/model';
import { REDACTED, writeCredentials } from 'dataapi/runtime/shared';

/** Query and header names the model's operations take a key in. */
export function keyCarriers(model: ServiceModel): { query: Set<string>; headers: Set<string> } {
  const query = new Set<string>();
  const headers = new Set<string>(['authorization', 'cookie']);
  for (const op of model.operations) {
    // Where each transport places a key: Authorization and Cookie are censored already.
    writeCredentials(op.auth.transports, () => '', {
      query: (name) => query.add(name),
      header: (name) => headers.add(name.toLowerCase()),
      cookie: () => undefined,
      body: () => undefined,
    });
  }
  return { query, headers };
}

/** The URL with the value of each key-carrying query parameter replaced. */
export function redactUrl(url: string, names: Set<string>): string {
  const q = url.indexOf('?');
  if (q < 0 || names.size === 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // a malformed name is logged as sent
      }
      return names.has(name) && eq >= 0 ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Logger and request-id options for Fastify(...). */
export function serverLogOptions(
  model: ServiceModel,
  level: string,
): Pick<FastifyServerOptions, 'logger' | 'genReqId'> {
  const carriers = keyCarriers(model);
  return {
    logger: {
      level,
      redact: {
        paths: [...carriers.headers].map((h) => `req.headers[${JSON.stringify(h)}]`),
        censor: REDACTED,
      },
      serializers: {
        req: (req: {
          method: string;
          url: string;
          ip?: string;
          socket?: { remotePort?: number };
        }) => ({
          method: req.method,
          url: redactUrl(req.url, carriers.query),
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  };
}

/** Echoes the request id on every answer, so a client can quote it. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
