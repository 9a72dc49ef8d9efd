/**
 * The server of test/fixtures/given/zones.yaml: a real Fastify server that keeps zones by name
 * in memory, as PowerDNS does: a second create of the same name is refused with 409 Conflict, and
 * a PUT whose body gives another `name` renames the zone (its identifier changes). Input is
 * validated (400), wrong methods get 405 with Allow, bodies other than JSON 415. It also counts
 * the creates it accepted and refused, and the zones left at the end.
 */
import Fastify, { type FastifyInstance } from 'fastify';

interface Zone {
  name: string;
  kind: string;
}

export interface ZonesServer {
  url: string;
  zones: Map<string, Zone>;
  /** POST /zones answered 201, and 409 (the name existed). */
  creates: { created: number; conflicts: number };
  /** PUTs that renamed a zone: `old -> new`. */
  renames: string[];
  close(): Promise<void>;
}

const validZone = (body: unknown): body is Zone => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { name, kind } = body as Record<string, unknown>;
  if (typeof name !== 'string' || !name.endsWith('.')) return false;
  return kind === undefined || kind === 'Native' || kind === 'Master';
};

/**
 * `canonical`: names are stored in lower case (a renamed zone is then found by neither the name
 * sent nor its former one), and the PUT's answer says nothing of it.
 */
export async function startZonesServer(o: { canonical?: boolean } = {}): Promise<ZonesServer> {
  const nameOf = (name: string) => (o.canonical ? name.toLowerCase() : name);
  const zones = new Map<string, Zone>();
  const creates = { created: 0, conflicts: 0 };
  const renames: string[] = [];
  const app: FastifyInstance = Fastify({ logger: false });
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(String(body)));
    } catch (err) {
      done(Object.assign(err as Error, { statusCode: 400 }), undefined);
    }
  });
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send({ error: err.message });
  });
  const missing = { error: 'Could not find domain' };
  const known: Record<string, RegExp> = {
    GET: /^\/zones(\/[^/]+(\/records)?)?$/,
    POST: /^\/zones$/,
    PUT: /^\/zones\/[^/]+$/,
    DELETE: /^\/zones\/[^/]+$/,
  };
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    // A method on a zone that does not exist: the zone is what is missing (404).
    const zone = /^\/zones\/([^/]+)/.exec(path)?.[1];
    if (zone !== undefined && !zones.has(decodeURIComponent(zone)))
      return reply.code(404).send(missing);
    const allow = Object.keys(known).filter((m) => known[m]!.test(path));
    if (allow.length > 0)
      return reply.code(405).header('allow', allow.join(', ')).send({ error: 'not allowed' });
    return reply.code(404).send({ error: 'not found' });
  });

  app.get('/zones', async () => [...zones.values()]);
  app.post('/zones', async (req, reply) => {
    if (!validZone(req.body)) return reply.code(400).send({ error: 'invalid zone' });
    if (zones.has(nameOf(req.body.name))) {
      creates.conflicts++;
      return reply.code(409).send({ error: 'Conflict' });
    }
    creates.created++;
    const zone = { name: nameOf(req.body.name), kind: req.body.kind ?? 'Native' };
    zones.set(zone.name, zone);
    return reply.code(201).send(zone);
  });
  app.get('/zones/:id', async (req, reply) => {
    const zone = zones.get((req.params as { id: string }).id);
    return zone ?? reply.code(404).send(missing);
  });
  app.get('/zones/:id/records', async (req, reply) =>
    zones.has((req.params as { id: string }).id) ? [] : reply.code(404).send(missing),
  );
  app.put('/zones/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const zone = zones.get(id);
    if (!zone) return reply.code(404).send(missing);
    if (!validZone(req.body)) return reply.code(400).send({ error: 'invalid zone' });
    const name = nameOf(req.body.name);
    if (name !== id) {
      if (zones.has(name)) return reply.code(400).send({ error: 'name taken' });
      zones.delete(id);
      renames.push(`${id} -> ${name}`);
    }
    zones.set(name, { name, kind: req.body.kind ?? zone.kind });
    return reply.code(204).send();
  });
  app.delete('/zones/:id', async (req, reply) =>
    zones.delete((req.params as { id: string }).id)
      ? reply.code(204).send()
      : reply.code(404).send(missing),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, zones, creates, renames, close: () => app.close() };
}
