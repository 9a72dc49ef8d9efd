/**
 * The server of test/fixtures/recheck/recheck.yaml: a real Fastify server. Strict, it refuses a
 * missing or too long `q` (400) as the description says; lax, it takes anything (the target's
 * failure the suite must still report). Either way it wants the key in `appkey` (401) and answers
 * 405 with Allow and 404 as expected.
 */
import Fastify from 'fastify';
import { KEY } from './harness.ts';

export async function startRecheckServer(o: {
  strict: boolean;
}): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  app.addHook('preHandler', async (req, reply) => {
    if ((req.query as { appkey?: unknown }).appkey !== KEY)
      return reply.code(401).send({ message: 'missing or wrong key' });
  });
  app.get('/greeting', async () => ({ text: 'hello' }));
  app.get('/items', async (req, reply) => {
    const q = (req.query as { q?: unknown }).q;
    if (o.strict && (typeof q !== 'string' || q.length > 10))
      return reply.code(400).send({ message: 'q is required, at most 10 characters' });
    return { items: typeof q === 'string' ? [q] : [] };
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path === '/greeting' || path === '/items')
      return reply.code(405).header('allow', 'GET').send({ message: 'method not allowed' });
    return reply.code(404).send({ message: 'not found' });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: async () => void (await app.close()) };
}
