/**
 * A small conforming server for the contract tests' own tests: the shared server runtime with
 * handlers that answer each operation's success example (its payload), keep async tasks, and list
 * uploaded files. It is independent of generated/mock, so these tests can tell a broken suite from
 * a broken mock.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Operation, ServiceModel } from 'dataapi/model';
import { registerService, type Handler } from 'dataapi/runtime/server';

export const REFERENCE_KEY = 'reference-key-7d1c';

function examplePayload(op: Operation): unknown {
  const value = op.success?.examples[0]?.value;
  const env = op.envelope;
  if (!env || typeof value !== 'object' || value === null) return value ?? {};
  return (value as Record<string, unknown>)[env.payloadKey] ?? null;
}

export async function createReferenceServer(model: ServiceModel): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const tasks = new Map<string, number>();
  const handlers: Record<string, Handler> = {};
  for (const op of model.operations) {
    handlers[op.id] = async (input) => {
      const payload = structuredClone(examplePayload(op)) as Record<string, unknown> | unknown[];
      if (op.async?.role === 'submit') {
        const id = `op_${tasks.size + 1}`;
        tasks.set(id, 0);
        return { ...(payload as object), operationId: id, status: 'queued' };
      }
      if (op.async?.role === 'status') {
        const id = String(Object.values(input.path)[0]);
        const polls = tasks.get(id);
        if (polls === undefined)
          return { ...(payload as object), operationId: id, status: 'succeeded' };
        tasks.set(id, polls + 1);
        return {
          ...(payload as object),
          operationId: id,
          status: polls >= 1 ? 'succeeded' : 'running',
        };
      }
      if (input.files && input.files.length > 0 && !Array.isArray(payload) && payload) {
        const kb = Object.values(input.path)[0];
        return {
          ...payload,
          ...(kb !== undefined ? { knowledge_base_id: kb } : {}),
          documents: input.files.map((f, i) => ({
            document_id: `doc_${i + 1}`,
            file_name: f.filename,
            file_size: f.size,
            status: 'uploaded',
            parse_status: 'pending',
            index_status: 'pending',
            chunk_count: 0,
            token_estimate: 0,
          })),
        };
      }
      if (Array.isArray(payload)) {
        const size = Number((input.query as Record<string, unknown>)['pageSize']);
        return Number.isInteger(size) ? payload.slice(0, size) : payload;
      }
      return payload;
    };
  }
  await registerService(app, {
    model,
    handlers,
    verifyKey: (key) => key === REFERENCE_KEY,
  });
  return app;
}

export async function startReferenceServer(
  model: ServiceModel,
): Promise<{ url: string; app: FastifyInstance }> {
  const app = await createReferenceServer(model);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, app };
}
