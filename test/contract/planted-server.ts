/**
 * The server of test/fixtures/fuzz/planted.yaml: a real Fastify server that validates its input
 * (400), checks its key (401), answers 405 with Allow and 415 as the checks expect, and has one
 * planted bug per operation that only some inputs reach (a 500): a name containing a comma, a note
 * longer than 40 characters, the inclusive maximum score 750, the unit `kelvin`. Every request it
 * receives is recorded byte for byte.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export const PLANTED_KEY = 'planted-secret-key-3c9a';

export interface Recorded {
  /** `GET /people?name=Ada` */
  line: string;
  headers: string;
  body: string;
}

const ERROR = { type: 'object', properties: { message: { type: 'string' } } };
const boom = { message: 'internal error' };

export async function startPlantedServer(
  o: { bugs?: boolean } = {},
): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const bugs = o.bugs ?? true;
  const requests: Recorded[] = [];
  const notes = new Map<string, string>();
  const app: FastifyInstance = Fastify({ logger: false });
  // JSON bodies only (a body sent as text/plain is a 415), recorded as they arrived.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const last = requests[requests.length - 1];
    if (last) last.body = String(body);
    try {
      done(null, JSON.parse(String(body)));
    } catch (err) {
      done(Object.assign(err as Error, { statusCode: 400 }), undefined);
    }
  });
  app.addHook('onRequest', async (req) => {
    const headers = Object.entries(req.headers)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .sort()
      .join('\n');
    requests.push({ line: `${req.method} ${req.url}`, headers, body: '' });
  });
  app.addHook('preHandler', async (req, reply) => {
    if (req.headers['x-api-key'] !== PLANTED_KEY)
      return reply.code(401).send({ message: 'missing or wrong key' });
  });
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ message: err.message });
  });
  const known: Record<string, RegExp> = {
    GET: /^\/(people|scores|forecast|notes\/[^/]+)$/,
    POST: /^\/notes$/,
  };
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const allow = Object.keys(known).filter((m) => known[m]!.test(path));
    if (allow.length > 0)
      return reply
        .code(405)
        .header('allow', allow.join(', '))
        .send({ message: 'method not allowed' });
    return reply.code(404).send({ message: 'not found' });
  });

  const responses = (ok: number, schema: object) => ({ [ok]: schema, '4xx': ERROR, 500: ERROR });
  app.get(
    '/people',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', maxLength: 64 },
            limit: { type: 'integer', minimum: 1, maximum: 50 },
            sort: { type: 'string', enum: ['asc', 'desc'] },
          },
        },
      },
    },
    async (req, reply) => {
      const { name } = req.query as { name: string };
      // Planted: the name is split on commas somewhere deep down.
      if (bugs && name.includes(',')) return reply.code(500).send(boom);
      return { items: [{ name }] };
    },
  );
  app.post(
    '/notes',
    {
      schema: {
        body: {
          type: 'object',
          required: ['text'],
          properties: {
            text: { type: 'string', maxLength: 200 },
            tags: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 20 } },
            pinned: { type: 'boolean' },
          },
        },
        response: responses(201, {}),
      },
    },
    async (req, reply) => {
      const { text } = req.body as { text: string };
      // Planted: a column of 40 characters.
      if (bugs && [...text].length > 40) return reply.code(500).send(boom);
      const id = `n${fnv(text)}`;
      notes.set(id, text);
      return reply.code(201).send({ id, text });
    },
  );
  app.get(
    '/notes/:noteId',
    {
      schema: {
        params: {
          type: 'object',
          properties: { noteId: { type: 'string', pattern: '^n[0-9]+$' } },
        },
      },
    },
    async (req, reply) => {
      const { noteId } = req.params as { noteId: string };
      const text = notes.get(noteId);
      if (text === undefined) return reply.code(404).send({ message: 'no such note' });
      return { id: noteId, text };
    },
  );
  app.get(
    '/scores',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['value'],
          properties: {
            value: { type: 'integer', minimum: 0, maximum: 750 },
            region: { type: 'string', maxLength: 8 },
          },
        },
      },
    },
    async (req, reply) => {
      const { value } = req.query as { value: number };
      // Planted: a table of ranks with 750 entries, indexed 0..749.
      if (bugs && value === 750) return reply.code(500).send(boom);
      return { rank: 751 - value };
    },
  );
  app.get(
    '/forecast',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['unit'],
          properties: {
            unit: { type: 'string', enum: ['celsius', 'fahrenheit', 'kelvin'] },
            days: { type: 'integer', minimum: 1, maximum: 7 },
          },
        },
      },
    },
    async (req, reply) => {
      const { unit, days } = req.query as { unit: string; days?: number };
      // Planted: one conversion was never written.
      if (bugs && unit === 'kelvin') return reply.code(500).send(boom);
      return { temperatures: Array.from({ length: days ?? 1 }, (_, i) => 20 + i) };
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests, close: async () => void (await app.close()) };
}

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
