/**
 * The server of test/fixtures/negatives/formats.yaml: a real Fastify server that, like the field
 * panel's servers, asserts some formats and not others. It reads a silence id that is no uuid as
 * any other id (Jupyter-like: the format unasserted), refuses one on DELETE with 422, a status the
 * description does not declare (Alertmanager V4), takes a `null` alert list as an empty one
 * (Alertmanager L2) and fails with 500 on a `since` that is no date-time.
 */
import Fastify from 'fastify';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROUTES: [RegExp, string[]][] = [
  [/^\/silences\/[^/]+$/, ['GET', 'DELETE']],
  [/^\/alerts$/, ['POST']],
  [/^\/events$/, ['GET']],
];

export interface FormatServer {
  url: string;
  close(): Promise<void>;
}

export async function startFormatServer(): Promise<FormatServer> {
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/silences/:id', async (req) => ({ id: req.params.id }));
  app.delete<{ Params: { id: string } }>('/silences/:id', async (req, reply) =>
    UUID.test(req.params.id)
      ? reply.code(200).send()
      : reply.code(422).send({ message: 'silenceId must be of type uuid' }),
  );
  app.post('/alerts', async (req, reply) => {
    if (req.body === undefined) return reply.code(400).send({ message: 'no alerts sent' });
    const alerts = (req.body ?? []) as unknown; // the planted fault: null read as no alerts
    const fine = Array.isArray(alerts) && alerts.every((a) => typeof a === 'object' && a !== null);
    return fine ? reply.code(200).send() : reply.code(400).send({ message: 'bad alerts' });
  });
  app.get<{ Querystring: { since?: string } }>('/events', async (req, reply) => {
    const since = req.query.since;
    if (since === undefined) return reply.code(400).send({ message: 'since is required' });
    // The planted fault: no check of the format before the date is used.
    if (Number.isNaN(Date.parse(since))) throw new Error('invalid date');
    return [];
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const allowed = ROUTES.find(([re]) => re.test(path))?.[1];
    if (allowed) return reply.code(405).header('allow', allowed.join(', ')).send();
    return reply.code(404).send({ message: 'no such path' });
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
}
