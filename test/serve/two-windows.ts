/**
 * A service of one operation with two rate-limit windows (the description's default and the
 * operation's own), its counters in a Redis client: the set-up shared by the Redis tests
 * (test/serve/redis.test.ts, test/serve/redis-round-trips.test.ts, test/server/rate-limit-keys.test.ts).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceModel as Model } from 'dataapi/model';
import { registerService, type RedisClient } from 'dataapi/runtime/server';
import { normalise } from '../../generator/normalise/index.ts';

export interface Limit {
  limit: number;
  per: 'second' | 'minute' | 'hour' | 'day';
}

/** The model of `GET /<id>` (operation `id`, an appkey in the query): `own` over `byDefault`. */
export function twoWindowModel(id: string, byDefault: Limit, own: Limit): Model {
  const document = {
    openapi: '3.1.0',
    info: { title: 'two windows', version: '1' },
    'x-dataapi-rate-limit': byDefault,
    paths: {
      [`/${id}`]: {
        get: {
          operationId: id,
          'x-dataapi-rate-limit': own,
          security: [{ key: [] }],
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
    },
    components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'appkey' } } },
  };
  return normalise({ file: `${id}.json`, locate: () => undefined, document });
}

/** Serves `model` (from twoWindowModel) limited through `redis`, on 127.0.0.1 and a free port. */
export async function serveTwoWindows(
  model: Model,
  redis: RedisClient,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  const id = model.operations[0]!.id;
  try {
    await registerService(app, {
      model,
      handlers: { [id]: async () => ({}) },
      insecureAnyKey: true,
      rateLimit: { redis },
    });
    return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  } catch (err) {
    await app.close();
    throw err;
  }
}
