/**
 * A route shared by more operations than find-my-way's constraints can tell apart (31): AWS's
 * JSON services put every operation at `POST /#X-Amz-Target=Service.Operation`, told apart by a
 * required header of one allowed value. Found by the corpus run (amazonaws.com/elasticmapreduce,
 * 54 operations: those past the 31st answered 501, and the others' requests reached the route's
 * owner). Each must be reached by its own header, or by `Prefer: operation=<id>`, on the mock
 * and on a served app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMock } from 'dataapi/runtime/mock';
import type { ServiceModel } from 'dataapi/model';
import { modelOf } from './serve-fixture.ts';

const COUNT = 40;
const names = Array.from({ length: COUNT }, (_, i) => `Op${String(i).padStart(2, '0')}`);

function description(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const name of names)
    paths[`/#X-Amz-Target=Svc.${name}`] = {
      post: {
        operationId: name,
        parameters: [
          {
            name: 'X-Amz-Target',
            in: 'header',
            required: true,
            schema: { type: 'string', enum: [`Svc.${name}`] },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: [`field${name}`],
                properties: { [`field${name}`]: { type: 'string' } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['op'], properties: { op: { const: name } } },
              },
            },
          },
        },
      },
    };
  return { openapi: '3.0.3', info: { title: 'many on one route', version: '1' }, paths };
}

let model: ServiceModel;
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  model = modelOf(description());
  const findings: string[] = [];
  app = await createMock(model, {
    seed: 3,
    rateLimit: false,
    onFinding: (f) => findings.push(`${f.code}: ${f.message}`),
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  expect(findings.filter((f) => /not-served/.test(f))).toEqual([]);
});
afterAll(() => app.close());

const post = (name: string, headers: Record<string, string>) =>
  fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ [`field${name}`]: 'x' }),
  });

describe(`${COUNT} operations on POST /`, () => {
  it('each is reached by its own X-Amz-Target header', async () => {
    for (const name of names) {
      const res = await post(name, { 'x-amz-target': `Svc.${name}` });
      const text = await res.text();
      expect(res.status, `${name}: ${text}`).toBe(200);
      expect(JSON.parse(text), name).toEqual({ op: name });
    }
  });

  it('each is reached by Prefer: operation=<id>, and a wrong body is refused by its own schema', async () => {
    for (const name of [names[0]!, names[31]!, names[COUNT - 1]!]) {
      const id = model.operations.find((o) => o.pathKey.endsWith(name))!.id;
      const res = await post(name, { 'x-amz-target': `Svc.${name}`, prefer: `operation=${id}` });
      expect(res.status, name).toBe(200);
      const wrong = await fetch(`${url}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-amz-target': `Svc.${name}` },
        body: '{}',
      });
      expect(wrong.status, name).toBe(400);
      expect(await wrong.text(), name).toContain(`field${name}`);
    }
  });
});
