/**
 * The server of test/fixtures/verdicts/shelf.yaml: a real Fastify server under /api/v2 that keeps
 * its books in memory, checks its key (401, which the description does not declare), answers 405
 * with Allow and 404 as HTTP says, and does what real servers do where a description is silent:
 * a health check with a JSON body its response does not describe, a file path that takes the rest
 * of the URL, loans that exist only on the server. One real violation is planted: the book list
 * holds a title that is a number (`schema` of listBooks).
 */
import Fastify, { type FastifyReply } from 'fastify';

export const SHELF_KEY = 'shelf-secret-key-81d2';
const BASE = '/api/v2';

export interface Shelf {
  url: string;
  /** Request lines received (`GET /api/v2/books`). */
  lines: string[];
  books: Map<string, { id: string; title: unknown }>;
  close(): Promise<void>;
}

const ROUTES: [RegExp, string[]][] = [
  [/^\/api\/v2\/health$/, ['GET']],
  [/^\/api\/v2\/books$/, ['GET', 'POST']],
  [/^\/api\/v2\/books\/[^/]+$/, ['GET', 'DELETE']],
  [/^\/api\/v2\/loans\/[^/]+$/, ['GET']],
  [/^\/api\/v2\/files\/.+$/, ['GET']],
];

export async function startShelf(): Promise<Shelf> {
  const lines: string[] = [];
  const books = new Map<string, { id: string; title: unknown }>([
    ['b1', { id: 'b1', title: 'Dune' }],
    ['b2', { id: 'b2', title: 42 }],
  ]);
  let next = 3;
  const app = Fastify({ logger: false });
  const missing = (reply: FastifyReply, what: string) =>
    reply.code(404).send({ message: `no such ${what}` });
  app.addHook('onRequest', async (req, reply) => {
    lines.push(`${req.method} ${req.url}`);
    const path = req.url.split('?')[0]!;
    if (path !== `${BASE}/health` && req.headers['x-api-key'] !== SHELF_KEY)
      return reply.code(401).send({ message: 'missing or wrong key' });
  });
  app.get(`${BASE}/health`, async () => ({ status: 'ok' }));
  app.get(`${BASE}/books`, async () => [...books.values()]);
  app.post(`${BASE}/books`, async (req, reply) => {
    const body = req.body as { title?: unknown } | null;
    if (typeof body?.title !== 'string' || body.title === '')
      return reply.code(400).send({ message: 'title must be a non-empty string' });
    const book = { id: `b${next++}`, title: body.title };
    books.set(book.id, book);
    return reply.code(201).send(book);
  });
  app.get<{ Params: { id: string } }>(`${BASE}/books/:id`, async (req, reply) =>
    books.has(req.params.id) ? books.get(req.params.id) : missing(reply, 'book'),
  );
  app.delete<{ Params: { id: string } }>(`${BASE}/books/:id`, async (req, reply) => {
    if (!books.delete(req.params.id)) return missing(reply, 'book');
    return reply.code(204).send();
  });
  app.get(`${BASE}/loans/:id`, async (_req, reply) => missing(reply, 'loan'));
  app.get(`${BASE}/files/*`, async (req, reply) =>
    reply.type('text/plain').send(`contents of ${(req.params as Record<string, string>)['*']}`),
  );
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const allowed = ROUTES.find(([re]) => re.test(path))?.[1];
    if (allowed) return reply.code(405).header('allow', allowed.join(', ')).send();
    return missing(reply, 'path');
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, lines, books, close: () => app.close() };
}
