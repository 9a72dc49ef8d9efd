/** Real servers for the client tests: the generated mock, and small Fastify servers that record. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createMockServer } from '../../generated/mock/index.ts';

export const MOCK_KEY = 'mock-appkey';
/** A key with characters that URL-encoding changes, to catch leaks of its encoded forms. */
export const SECRET = 'sk live/Key+42=?&Z';

export interface Running {
  app: FastifyInstance;
  baseUrl: string;
  close(): Promise<void>;
}

async function listen(app: FastifyInstance): Promise<Running> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export async function startMock(
  options: Parameters<typeof createMockServer>[0] = {},
): Promise<Running> {
  return listen(await createMockServer(options));
}

export interface Arrival {
  at: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A Fastify server whose routes the test writes; every request's arrival time is recorded. */
export async function startServer(
  routes: (app: FastifyInstance) => void,
): Promise<Running & { arrivals: Arrival[] }> {
  const app = Fastify({ forceCloseConnections: true });
  const arrivals: Arrival[] = [];
  app.addHook('onRequest', async (req) => {
    arrivals.push({
      at: performance.timeOrigin + performance.now(),
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: undefined,
    });
  });
  app.addHook('preHandler', async (req) => {
    const last = arrivals.findLast((a) => a.url === req.url);
    if (last) last.body = req.body;
  });
  // Multipart bodies are kept as text: tests look for the parts they expect in it.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );
  routes(app);
  return { ...(await listen(app)), arrivals };
}

export const capitalised = (data: unknown, code = 100, extra: Record<string, unknown> = {}) => ({
  DataStatus: {
    StatusCode: code,
    StatusDescription: code === 100 ? '请求成功' : 'failed',
    ResponseDateTime: '2025-03-18T10:00:00+08:00',
    DataTotalCount: Array.isArray(data) ? data.length : 1,
    ...extra,
  },
  Data: data,
});
